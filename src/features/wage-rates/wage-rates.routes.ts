import { z } from "@hono/zod-openapi";
import { authorize } from "@/auth/authorize";
import { IfMatchHeaders, jsonBody, jsonContent, OrganizationParams, problems, withETag } from "@/platform/openapi/helpers";
import { defineRoute } from "@/platform/routes/define-route";
import {
  ResolvedWage,
  ResolveQuery,
  WageRate,
  WageRateCreate,
  WageRateListQuery,
  WageRateParams,
  WageRatePatch,
} from "./wage-rates.schemas";

const tags = ["Wage rates"];
const path = "/api/organizations/{organization_id}/wage-rates";

/** Reads: EMPLOYEE_WRITE for anyone's rates; without it a staff member reads only their own. */
const read = authorize("EMPLOYEE_WRITE", { asThemself: true });
const write = authorize("EMPLOYEE_WRITE");

const RESOLUTION =
  "A shift is paid the rate resolved at its start (its local date): among the staff member's live rates effective " +
  "that day (effectiveFrom ≤ date) matching its role and location, the most specific (role and location > role > " +
  "location > staff member only), then the newest; else the role's hourlyWage, else the staff member's. Clock-in " +
  "and manual shifts record it on the shift (`hourlyWage`, `wageRateId`). Retroactive rates are paid: creating, " +
  "changing or deleting a rate re-rates, in the same write, the staff member's recorded shifts on or after its " +
  "effectiveFrom (the stored and the new one) whose wage came from this resolution and that the rate decides, so a " +
  "shift is always paid what resolve answers for it (29 CFR 778.303); each re-rated shift gets a new version, a " +
  "`shift.updated` event and an entry in its history. A wage set by hand on a shift (`hourlyWage` in POST or PATCH " +
  "/timesheets) stays; a change of the shift's role resolves it again. A salaried staff member's shifts carry no " +
  "hourly wage.";

const FROZEN =
  "A rate whose effectiveFrom (stored or new) is a date a closed pay period froze is refused: 409 PAY_PERIOD_CLOSED; " +
  "so is a rate whose write would re-rate a shift on a date a closed period froze (409 PAY_PERIOD_CLOSED naming the " +
  "first such period) or in an approved timesheet (409 TIMESHEET_APPROVED). A refused write changes nothing.";

export const list = defineRoute({
  method: "get",
  path,
  operationId: "listWageRates",
  flags: { scope: "organization", list: true },
  tags,
  summary: "List wage rates",
  description: `The organization's live wage rates (\`employeeId\` filters), paged like every list. Without EMPLOYEE_WRITE a staff member lists only their own. ${RESOLUTION}`,
  middleware: [read] as const,
  request: { params: OrganizationParams, query: WageRateListQuery },
  responses: { 200: jsonContent(z.array(WageRate), "The wage rates") },
});

export const create = defineRoute({
  method: "post",
  path,
  operationId: "createWageRate",
  flags: { scope: "organization", idempotency: "middleware" },
  tags,
  summary: "Create a wage rate",
  description: `Adds an effective-dated rate for the staff member, optionally only for one role and/or one location (null: any). (employeeId, roleId, locationId, effectiveFrom) is unique among live rates: 409 WAGE_RATE_TAKEN. A future effectiveFrom applies to shifts starting on or after it; a past one re-rates the shifts recorded since. ${FROZEN} ${RESOLUTION}`,
  middleware: [write] as const,
  request: { params: OrganizationParams, body: jsonBody(WageRateCreate) },
  responses: {
    201: withETag(jsonContent(WageRate, "The created wage rate")),
    ...problems(
      "STAFF_MEMBER_NOT_FOUND",
      "ROLE_NOT_FOUND",
      "LOCATION_NOT_FOUND",
      "WAGE_RATE_TAKEN",
      "PAY_PERIOD_CLOSED",
      "TIMESHEET_APPROVED",
    ),
  },
});

export const resolve = defineRoute({
  method: "get",
  path: `${path}/resolve`,
  operationId: "resolveWageRate",
  flags: { scope: "organization" },
  tags,
  summary: "Resolve the hourly rate of a shift",
  description: `The rate a shift of \`employeeId\` in \`roleId\` at \`locationId\` starting on \`date\` is paid, and where it comes from (\`source\`: WAGE_RATE with its \`wageRateId\`, else ROLE, else STAFF_MEMBER). Without EMPLOYEE_WRITE a staff member resolves only their own. ${RESOLUTION}`,
  middleware: [read] as const,
  request: { params: OrganizationParams, query: ResolveQuery },
  responses: {
    200: jsonContent(ResolvedWage, "The resolved rate and its source"),
    ...problems("STAFF_MEMBER_NOT_FOUND", "ROLE_NOT_FOUND"),
  },
});

export const get = defineRoute({
  method: "get",
  path: `${path}/{id}`,
  operationId: "getWageRate",
  flags: { scope: "organization" },
  tags,
  summary: "Retrieve a wage rate",
  description: "One live wage rate, with its ETag. Without EMPLOYEE_WRITE a staff member reads only their own (another's is 404).",
  middleware: [read] as const,
  request: { params: WageRateParams },
  responses: { 200: withETag(jsonContent(WageRate, "The wage rate")), ...problems("WAGE_RATE_NOT_FOUND") },
});

export const patch = defineRoute({
  method: "patch",
  path: `${path}/{id}`,
  operationId: "updateWageRate",
  flags: { scope: "organization" },
  tags,
  summary: "Update a wage rate",
  description: `Changes the rate's hourlyRate or effectiveFrom; the recorded shifts it decided or now decides are re-rated (see the list's description). ${FROZEN}`,
  middleware: [write] as const,
  request: { params: WageRateParams, body: jsonBody(WageRatePatch), headers: IfMatchHeaders },
  responses: {
    200: withETag(jsonContent(WageRate, "The updated wage rate")),
    ...problems("WAGE_RATE_NOT_FOUND", "WAGE_RATE_TAKEN", "PAY_PERIOD_CLOSED", "TIMESHEET_APPROVED", "PRECONDITION_FAILED"),
  },
});

export const remove = defineRoute({
  method: "delete",
  path: `${path}/{id}`,
  operationId: "deleteWageRate",
  flags: { scope: "organization" },
  tags,
  summary: "Delete a wage rate",
  description: `Soft delete: the rate no longer applies; the recorded shifts resolved from it are re-rated by the rates left (else their role's wage, else the staff member's). ${FROZEN}`,
  middleware: [write] as const,
  request: { params: WageRateParams, headers: IfMatchHeaders },
  responses: {
    200: withETag(jsonContent(WageRate, "The deleted wage rate")),
    ...problems("WAGE_RATE_NOT_FOUND", "PAY_PERIOD_CLOSED", "TIMESHEET_APPROVED", "PRECONDITION_FAILED"),
  },
});

export type ListRoute = typeof list;
export type CreateRoute = typeof create;
export type ResolveRoute = typeof resolve;
export type GetRoute = typeof get;
export type PatchRoute = typeof patch;
export type RemoveRoute = typeof remove;
