import { z } from "@hono/zod-openapi";
import { authorize } from "@/auth/authorize";
import { conditionalGet } from "@/platform/http/conditional";
import {
  IfMatchHeaders,
  IfNoneMatchHeaders,
  jsonBody,
  jsonContent,
  notModified,
  OrganizationParams,
  problems,
  withETag,
} from "@/platform/openapi/helpers";
import { defineRoute } from "@/platform/routes/define-route";
import { ListQuery, PageQuery } from "@/platform/schemas/list-query";
import {
  LedgerEntry,
  LedgerParams,
  Policy,
  PolicyCreate,
  PolicyListQuery,
  PolicyParams,
  PolicyPatch,
  PolicyType,
  PolicyTypeCreate,
  PolicyWorkerListQuery,
  WorkerPolicy,
  WorkerPolicyListQuery,
} from "./policies.schemas";

const tags = ["Time off"];
const base = "/api/organizations/{organization_id}";

export const listTypes = defineRoute({
  method: "get",
  path: `${base}/policies/types`,
  operationId: "listPolicyTypes",
  flags: { scope: "organization", list: true },
  tags,
  summary: "List all policy types",
  description: "The five default types made with the organization, then those it added.",
  middleware: [authorize("TIMEOFF_READ")] as const,
  request: { params: OrganizationParams, query: ListQuery },
  responses: { 200: jsonContent(z.array(PolicyType), "The organization's policy types"), ...problems() },
});

export const createType = defineRoute({
  method: "post",
  path: `${base}/policies/types`,
  operationId: "createPolicyType",
  flags: { scope: "organization", idempotency: "middleware" },
  tags,
  summary: "Create a policy type",
  description: "A type of the organization's own, of one of the enumeration's kinds (`Other` for anything else).",
  middleware: [authorize("TIMEOFF_WRITE")] as const,
  request: { params: OrganizationParams, body: jsonBody(PolicyTypeCreate) },
  responses: { 201: jsonContent(PolicyType, "The created policy type"), ...problems() },
});

export const list = defineRoute({
  method: "get",
  path: `${base}/policies`,
  operationId: "listPolicies",
  flags: { scope: "organization", list: true },
  tags,
  summary: "Retrieve all time off policies",
  description: "Keyset pages, oldest first; filters `status`, `typeId` and `locationId` combine.",
  middleware: [authorize("TIMEOFF_READ")] as const,
  request: { params: OrganizationParams, query: PolicyListQuery },
  responses: { 200: jsonContent(z.array(Policy), "The organization's policies"), ...problems() },
});

export const get = defineRoute({
  method: "get",
  path: `${base}/policies/{policy_id}`,
  operationId: "getPolicy",
  flags: { scope: "organization" },
  tags,
  summary: "Retrieve a policy",
  description: "The policy with its type embedded and `assignedStaffCount`, and its ETag for If-None-Match and If-Match.",
  middleware: [authorize("TIMEOFF_READ"), conditionalGet] as const,
  request: { params: PolicyParams, headers: IfNoneMatchHeaders },
  responses: { 200: withETag(jsonContent(Policy, "The policy")), ...notModified, ...problems("POLICY_NOT_FOUND") },
});

export const create = defineRoute({
  method: "post",
  path: `${base}/policies`,
  operationId: "createPolicy",
  flags: { scope: "organization", idempotency: "middleware" },
  tags,
  summary: "Create Policy",
  description: "A new policy is a Draft: activate it to accept requests and accrue.",
  middleware: [authorize("TIMEOFF_WRITE")] as const,
  request: { params: OrganizationParams, body: jsonBody(PolicyCreate) },
  responses: { 201: withETag(jsonContent(Policy, "The created policy")), ...problems() },
});

export const patch = defineRoute({
  method: "patch",
  path: `${base}/policies/{policy_id}`,
  operationId: "updatePolicy",
  flags: { scope: "organization" },
  tags,
  summary: "Update Policy",
  description:
    "Any of the policy's fields, and `workerPolicies`: each names a staff member by `employee.externalEmployeeId` " +
    "(unknown ones are a 400 naming them), sets whether they are included (overriding `defaultSettings.assignedStaff`) " +
    "and, with `hoursBalance`, writes one adjustment entry of the difference from their balance (0 when equal), in the policy's units. " +
    "Everything is one atomic batch.",
  middleware: [authorize("TIMEOFF_WRITE")] as const,
  request: { params: PolicyParams, body: jsonBody(PolicyPatch), headers: IfMatchHeaders },
  responses: { 200: withETag(jsonContent(Policy, "The whole updated policy")), ...problems("POLICY_NOT_FOUND", "PRECONDITION_FAILED") },
});

export const activate = defineRoute({
  method: "patch",
  path: `${base}/policies/{policy_id}/activate`,
  operationId: "activatePolicy",
  flags: { scope: "organization" },
  tags,
  summary: "Activate Policy",
  description: "Draft or Inactive → Active; activating an Active policy is a no-op.",
  middleware: [authorize("TIMEOFF_WRITE")] as const,
  request: { params: PolicyParams },
  responses: { 200: withETag(jsonContent(Policy, "The policy")), ...problems("POLICY_NOT_FOUND") },
});

export const deactivate = defineRoute({
  method: "patch",
  path: `${base}/policies/{policy_id}/deactivate`,
  operationId: "deactivatePolicy",
  flags: { scope: "organization" },
  tags,
  summary: "Deactivate Policy",
  description: "Active → Inactive; an Inactive policy is a no-op, a Draft is 409 `POLICY_NOT_ACTIVE`.",
  middleware: [authorize("TIMEOFF_WRITE")] as const,
  request: { params: PolicyParams },
  responses: { 200: withETag(jsonContent(Policy, "The policy")), ...problems("POLICY_NOT_FOUND", "POLICY_NOT_ACTIVE") },
});

export const listForPolicy = defineRoute({
  method: "get",
  path: `${base}/policies/{policy_id}/worker-policies`,
  operationId: "getWorkerPolicies",
  flags: { scope: "organization", list: true },
  tags,
  summary: "Get Worker Policies",
  description:
    "One balance per live staff member, in staff id order; `isIncluded` says whether the policy applies to them. Read-only: " +
    "a balance nothing has written yet is 0, with the id (`policyId:workerId`) its row is made with on its first write.",
  middleware: [authorize("TIMEOFF_READ")] as const,
  request: { params: PolicyParams, query: PolicyWorkerListQuery },
  responses: { 200: jsonContent(z.array(WorkerPolicy), "The policy's balances"), ...problems("POLICY_NOT_FOUND") },
});

export const listWorkerPolicies = defineRoute({
  method: "get",
  path: `${base}/worker-policies`,
  operationId: "listWorkerPolicies",
  flags: { scope: "organization", list: true },
  tags,
  summary: "List all worker policies",
  description:
    "With `workerId`: that staff member's balance in every live policy (read-only, as the policy's listing); without it, " +
    "the balances written so far. A caller without TIMEOFF_READ sees only their own.",
  middleware: [authorize("TIMEOFF_READ", { asThemself: true })] as const,
  request: { params: OrganizationParams, query: WorkerPolicyListQuery },
  responses: { 200: jsonContent(z.array(WorkerPolicy), "Balances"), ...problems("STAFF_MEMBER_NOT_FOUND") },
});

export const ledger = defineRoute({
  method: "get",
  path: `${base}/policies/{policy_id}/worker-policies/{workerId}/ledger`,
  operationId: "getWorkerPolicyLedger",
  flags: { scope: "organization", list: true },
  tags,
  summary: "A balance's ledger",
  description:
    "Every entry of the balance, paged by entry id (follow the `Link` header to read them all; the balance is their " +
    "sum); `effectiveDate` is the day each counts from, `createdAt` when it was written. Hours are always hours, " +
    "whatever the policy's units. The worker may read their own.",
  middleware: [authorize("TIMEOFF_READ", { self: "workerId" })] as const,
  request: { params: LedgerParams, query: PageQuery },
  responses: { 200: jsonContent(z.array(LedgerEntry), "The entries"), ...problems("POLICY_NOT_FOUND", "STAFF_MEMBER_NOT_FOUND") },
});

export type ListTypesRoute = typeof listTypes;
export type CreateTypeRoute = typeof createType;
export type ListRoute = typeof list;
export type GetRoute = typeof get;
export type CreateRoute = typeof create;
export type PatchRoute = typeof patch;
export type ActivateRoute = typeof activate;
export type DeactivateRoute = typeof deactivate;
export type ListForPolicyRoute = typeof listForPolicy;
export type ListWorkerPoliciesRoute = typeof listWorkerPolicies;
export type LedgerRoute = typeof ledger;
