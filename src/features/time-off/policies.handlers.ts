import { toHours } from "@/domain/time-off-units";
import { insertRecord, listPage } from "@/platform/crud/tenant-queries";
import { type HeaderContext, ifMatchOf, requireVersion, setETag } from "@/platform/http/conditional";
import type { AppRouteHandler } from "@/platform/http/env";
import { pageResult } from "@/platform/http/pagination";
import { policyNotActive } from "@/problems/time-off";
import type * as routes from "./policies.routes";
import { serializePolicyType } from "./policies.schemas";
import {
  findPolicy,
  type PolicyReadRow,
  policiesPage,
  policyEventData,
  policyRecords,
  policyTypeRecords,
  serializePolicyRead,
} from "./policy-read.data";
import { assertPolicyReferences, staffByExternalId } from "./policy-references.data";
import { movePolicy, patchPolicy } from "./policy-writes.data";
import { readSettings } from "./time-off-settings.data";

const withETag = (c: HeaderContext, row: PolicyReadRow) => {
  setETag(c, row.policy);
  return row;
};

export const listTypes: AppRouteHandler<routes.ListTypesRoute> = async (c) => {
  const { organization_id } = c.req.valid("param");
  const rows = await listPage(c, c.var.db, policyTypeRecords, organization_id, c.req.valid("query"));
  return c.json(rows.map(serializePolicyType), 200);
};

export const createType: AppRouteHandler<routes.CreateTypeRoute> = async (c) => {
  const { organization_id } = c.req.valid("param");
  const row = await insertRecord(c, policyTypeRecords, organization_id, c.req.valid("json"), "time_off_policy_type.created");
  return c.json(serializePolicyType(row), 201);
};

export const list: AppRouteHandler<routes.ListRoute> = async (c) => {
  const { organization_id } = c.req.valid("param");
  const query = c.req.valid("query");
  const rows = await policiesPage(c.var.db, organization_id, query);
  const paged = pageResult(
    c,
    rows.map((r) => ({ ...r, id: r.policy.id })),
    query.limit,
  );
  return c.json(paged.map(serializePolicyRead), 200);
};

export const get: AppRouteHandler<routes.GetRoute> = async (c) => {
  const { organization_id, policy_id } = c.req.valid("param");
  return c.json(serializePolicyRead(withETag(c, await findPolicy(c.var.db, organization_id, policy_id))), 200);
};

export const create: AppRouteHandler<routes.CreateRoute> = async (c) => {
  const { organization_id } = c.req.valid("param");
  const body = c.req.valid("json");
  const [{ typeKind }, { settings }] = await Promise.all([
    assertPolicyReferences(c.var.db, organization_id, body),
    readSettings(c.var.db, organization_id),
  ]);
  const row = await insertRecord(
    c,
    policyRecords,
    organization_id,
    {
      ...body,
      paid: body.paid ?? typeKind !== "Unpaid",
      fullDayDuration: body.fullDayDuration ?? settings.fullDayHours,
      defaultSettings: body.defaultSettings ?? {},
      limitSettings: body.limitSettings ?? {},
      status: "Draft",
    },
    { type: "time_off_policy.created", read: (id) => policyEventData(c.var.db, id) },
  );
  return c.json(serializePolicyRead(withETag(c, await findPolicy(c.var.db, organization_id, row.id))), 201);
};

/** Operation 8: the policy's fields and, in the same batch, its workers' inclusion and balances. */
export const patch: AppRouteHandler<routes.PatchRoute> = async (c) => {
  const { organization_id, policy_id } = c.req.valid("param");
  const { workerPolicies = [], ...changes } = c.req.valid("json");
  const db = c.var.db;
  const ifMatch = ifMatchOf(c);
  const [current, , staffIds, { timezone }] = await Promise.all([
    findPolicy(db, organization_id, policy_id),
    assertPolicyReferences(db, organization_id, changes),
    staffByExternalId(
      db,
      organization_id,
      workerPolicies.map((w) => w.employee.externalEmployeeId),
    ),
    readSettings(db, organization_id),
  ]);
  requireVersion(ifMatch, current.policy);
  const units = {
    units: changes.units ?? current.policy.units,
    fullDayDuration: changes.fullDayDuration ?? current.policy.fullDayDuration,
  };
  const assignments = workerPolicies.map((w) => ({
    workerId: staffIds.get(w.employee.externalEmployeeId)!,
    isIncluded: w.isIncluded,
    hours: w.hoursBalance === undefined ? undefined : toHours(w.hoursBalance, units),
  }));
  await patchPolicy(c.var, organization_id, policy_id, { changes, assignments, current: current.policy, timezone, ifMatch });
  return c.json(serializePolicyRead(withETag(c, await findPolicy(db, organization_id, policy_id))), 200);
};

/** Draft or Inactive → Active; an Active policy answers unchanged. */
export const activate: AppRouteHandler<routes.ActivateRoute> = async (c) => {
  const { organization_id, policy_id } = c.req.valid("param");
  const row = await movePolicy(c.var, organization_id, policy_id, {
    status: "Active",
    type: "time_off_policy.activated",
    activate: true,
  });
  return c.json(serializePolicyRead(withETag(c, row)), 200);
};

/** Active → Inactive; an Inactive policy answers unchanged, a Draft one is 409 POLICY_NOT_ACTIVE. */
export const deactivate: AppRouteHandler<routes.DeactivateRoute> = async (c) => {
  const { organization_id, policy_id } = c.req.valid("param");
  const row = await movePolicy(c.var, organization_id, policy_id, {
    status: "Inactive",
    type: "time_off_policy.deactivated",
  });
  if (row.policy.status === "Draft") throw policyNotActive();
  return c.json(serializePolicyRead(withETag(c, row)), 200);
};
