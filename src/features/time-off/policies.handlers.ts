import { policyTypes, timeOffPolicies } from "@db/schema";
import { and, eq, ne, type SQL } from "drizzle-orm";
import type { Context } from "hono";
import type { EventType } from "@/data/outbox/outbox";
import { inOrganization } from "@/data/tenancy";
import { grantsDueNow } from "@/data/time-off/grants-now.data";
import { guardedBatch } from "@/data/write/guarded-batch";
import { orGone, preconditionGuard, rowExists } from "@/data/write/precondition-guard";
import { localDate } from "@/domain/accrual";
import { toHours } from "@/domain/time-off-units";
import { insertRecord, listPage } from "@/platform/crud/tenant-queries";
import { type HeaderContext, ifMatchOf, nextVersion, requireVersion, setETag, versionCondition } from "@/platform/http/conditional";
import type { AppBindings, AppRouteHandler } from "@/platform/http/env";
import { keysetPage, pageResult } from "@/platform/http/pagination";
import { policyNotActive } from "@/problems/time-off";
import type * as routes from "./policies.routes";
import { serializePolicyType } from "./policies.schemas";
import { findPolicy, type PolicyReadRow, policyEventData, policyWhere, selectPolicies, serializePolicyRead } from "./policy-read.data";
import { assertPolicyReferences, staffByExternalId } from "./policy-references.data";
import { assignmentStatements } from "./policy-writes.data";
import { readSettings } from "./time-off-settings.data";

const withETag = (c: HeaderContext, row: PolicyReadRow) => {
  setETag(c, row.policy);
  return row;
};

export const listTypes: AppRouteHandler<routes.ListTypesRoute> = async (c) => {
  const { organization_id } = c.req.valid("param");
  const rows = await listPage(c, c.var.db, policyTypes, organization_id, c.req.valid("query"));
  return c.json(rows.map(serializePolicyType), 200);
};

export const createType: AppRouteHandler<routes.CreateTypeRoute> = async (c) => {
  const { organization_id } = c.req.valid("param");
  const row = await insertRecord(c, policyTypes, organization_id, c.req.valid("json"), "time_off_policy_type.created");
  return c.json(serializePolicyType(row), 201);
};

export const list: AppRouteHandler<routes.ListRoute> = async (c) => {
  const { organization_id } = c.req.valid("param");
  const query = c.req.valid("query");
  const page = keysetPage(timeOffPolicies, query);
  const rows = await selectPolicies(
    c.var.db,
    and(
      inOrganization(timeOffPolicies, organization_id, { includeDeleted: query.includeDeleted }),
      page.where,
      query.status ? eq(timeOffPolicies.status, query.status) : undefined,
      query.typeId ? eq(timeOffPolicies.typeId, query.typeId) : undefined,
      query.locationId ? eq(timeOffPolicies.locationId, query.locationId) : undefined,
    ),
  )
    .orderBy(page.orderBy)
    .limit(page.limit);
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
    timeOffPolicies,
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
  const now = new Date();
  const unchanged = and(policyWhere(organization_id, policy_id), versionCondition(timeOffPolicies.updatedAt, ifMatch));
  // The guard, not the update's own condition, keeps a concurrent write or delete from leaving the assignments written.
  await orGone(
    guardedBatch(
      c.var,
      [
        preconditionGuard(db, rowExists(timeOffPolicies, unchanged)),
        db
          .update(timeOffPolicies)
          .set({ ...changes, updatedAt: nextVersion(timeOffPolicies.updatedAt, now) })
          .where(unchanged),
        ...assignmentStatements(db, organization_id, policy_id, assignments, localDate(now, timezone), {
          // Whoever the patch includes in an Active policy is granted what is due now, before any target balance is set.
          grants:
            current.policy.status === "Active" ? grantsDueNow(db, organization_id, [{ ...current.policy, ...changes }], timezone, now) : [],
        }),
      ],
      [],
      // After every statement, so it reads the balances and counts the patch left; the guard fails the batch otherwise.
      {
        events: [{ organizationId: organization_id, type: "time_off_policy.updated", read: policyEventData(db, policy_id), always: true }],
      },
    ),
    () => findPolicy(db, organization_id, policy_id),
  );
  return c.json(serializePolicyRead(withETag(c, await findPolicy(db, organization_id, policy_id))), 200);
};

/**
 * Moves the policy to `status` from the statuses that may move there, recording the event only when it moved (a
 * repeat is a no-op that records nothing), and answers the policy as it now stands.
 */
async function movePolicy(
  c: Context<AppBindings>,
  organizationId: string,
  policyId: string,
  move: { status: "Active" | "Inactive"; from: SQL; type: EventType; set?: { activatedAt: Date } },
) {
  const now = new Date();
  const db = c.var.db;
  // Activation grants at once what is due to everyone the policy includes (once per period, as the Cron would).
  const grants =
    move.status === "Active"
      ? await Promise.all([findPolicy(db, organizationId, policyId), readSettings(db, organizationId)]).then(([{ policy }, { timezone }]) =>
          grantsDueNow(db, organizationId, [policy], timezone, now),
        )
      : [];
  await guardedBatch(
    c.var,
    [
      db
        .update(timeOffPolicies)
        .set({ ...move.set, status: move.status, updatedAt: nextVersion(timeOffPolicies.updatedAt, now) })
        .where(and(policyWhere(organizationId, policyId), move.from)),
    ],
    [],
    { events: [{ organizationId, type: move.type, read: policyEventData(db, policyId) }], trailing: grants },
  );
  return findPolicy(c.var.db, organizationId, policyId);
}

/** Draft or Inactive → Active; an Active policy answers unchanged. */
export const activate: AppRouteHandler<routes.ActivateRoute> = async (c) => {
  const { organization_id, policy_id } = c.req.valid("param");
  const row = await movePolicy(c, organization_id, policy_id, {
    status: "Active",
    from: ne(timeOffPolicies.status, "Active"),
    type: "time_off_policy.activated",
    set: { activatedAt: new Date() },
  });
  return c.json(serializePolicyRead(withETag(c, row)), 200);
};

/** Active → Inactive; an Inactive policy answers unchanged, a Draft one is 409 POLICY_NOT_ACTIVE. */
export const deactivate: AppRouteHandler<routes.DeactivateRoute> = async (c) => {
  const { organization_id, policy_id } = c.req.valid("param");
  const row = await movePolicy(c, organization_id, policy_id, {
    status: "Inactive",
    from: eq(timeOffPolicies.status, "Active"),
    type: "time_off_policy.deactivated",
  });
  if (row.policy.status === "Draft") throw policyNotActive();
  return c.json(serializePolicyRead(withETag(c, row)), 200);
};
