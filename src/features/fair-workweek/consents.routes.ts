import { z } from "@hono/zod-openapi";
import { authorize } from "@/auth/authorize";
import { jsonBody, jsonContent, problems, withETag } from "@/platform/openapi/helpers";
import { defineRoute } from "@/platform/routes/define-route";
import { ListQuery } from "@/platform/schemas/list-query";
import { Consent, ConsentCreate, ConsentParams } from "@/wire/schedule-change.schemas";

const tags = ["Fair Workweek"];
const path = "/api/organizations/{organization_id}/staffmembers/{id}/consents";
const USE =
  "A REST consent lets a manager schedule the worker inside their rest between shifts where the location's Fair " +
  "Workweek pack requires consent (NYC fast food: a closing then an opening shift less than 11 h apart; Philadelphia: " +
  "9 h): the schedule write names it as `consentId`, checked in the write's own batch (else 409 " +
  "REST_CONSENT_REQUIRED). Worked, such a shift still earns the pack's rest premium (a REST pay line).";

export const create = defineRoute({
  method: "post",
  path,
  operationId: "createConsent",
  flags: { scope: "organization", idempotency: "middleware" },
  tags,
  summary: "Give a consent (the worker's own)",
  description: `The worker's own consent, given with their own token only (another caller, a manager included, is 403). ${USE}`,
  middleware: [authorize(null)] as const,
  request: { params: ConsentParams, body: jsonBody(ConsentCreate) },
  responses: { 201: withETag(jsonContent(Consent, "The consent")), ...problems("STAFF_MEMBER_NOT_FOUND") },
});

export const list = defineRoute({
  method: "get",
  path,
  operationId: "listConsents",
  flags: { scope: "organization", list: true },
  tags,
  summary: "List a worker's consents",
  description: `The worker's consents, paged like every list. EMPLOYEE_READ, or the worker themself. ${USE}`,
  middleware: [authorize("EMPLOYEE_READ", { self: "id" })] as const,
  request: { params: ConsentParams, query: ListQuery },
  responses: { 200: jsonContent(z.array(Consent), "The consents"), ...problems("STAFF_MEMBER_NOT_FOUND") },
});

export type CreateRoute = typeof create;
export type ListRoute = typeof list;
