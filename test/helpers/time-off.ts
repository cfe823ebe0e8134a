import { api } from "./api";
import { createOrganization, type OrganizationFixture, unique } from "./fixtures";
import { tenantDb } from "./shards";
import { createStaffMember, staffToken } from "./staff";

export const orgPath = (org: OrganizationFixture, suffix: string) => `/api/organizations/${org.id}${suffix}`;

export async function policyTypeId(org: OrganizationFixture, type = "Vacation"): Promise<string> {
  const res = await api("GET", orgPath(org, "/policies/types"), { token: org.adminToken });
  return (res.body as { id: string; type: string }[]).find((t) => t.type === type)!.id;
}

/** A policy created by the admin (Draft unless `activate`). */
export async function createPolicy(org: OrganizationFixture, body: Record<string, unknown> = {}, activate = true) {
  const res = await api("POST", orgPath(org, "/policies"), {
    token: org.adminToken,
    body: { name: unique("Policy"), typeId: await policyTypeId(org), defaultSettings: { assignedStaff: { type: "All" } }, ...body },
  });
  if (res.status !== 201) throw new Error(`policy: ${res.status} ${res.text}`);
  if (!activate) return res.body;
  const activated = await api("PATCH", orgPath(org, `/policies/${res.body.id}/activate`), { token: org.adminToken });
  if (activated.status !== 200) throw new Error(`activate: ${activated.status} ${activated.text}`);
  return activated.body;
}

export interface TimeOffPlace {
  org: OrganizationFixture;
  worker: { id: string; externalId: string | null };
  workerToken: string;
  policy: { id: string } & Record<string, unknown>;
}

/** An organization (UTC unless told) with an Employee worker and an Active policy including everyone. */
export async function createTimeOffPlace(
  policy: Record<string, unknown> = {},
  organization: Record<string, unknown> = {},
): Promise<TimeOffPlace> {
  const org = await createOrganization({ timezone: "UTC", ...organization });
  const worker = await createStaffMember(org, { externalId: unique("ext"), accessRoleName: "Employee" });
  return { org, worker, workerToken: await staffToken(org, worker.id), policy: await createPolicy(org, policy) };
}

/** Sets a worker's balance through operation 8 (an adjustment entry). */
export async function setBalance(place: TimeOffPlace, hoursBalance: number, worker = place.worker) {
  const res = await api("PATCH", orgPath(place.org, `/policies/${place.policy.id}`), {
    token: place.org.adminToken,
    body: { workerPolicies: [{ employee: { externalEmployeeId: worker.externalId }, hoursBalance }] },
  });
  if (res.status !== 200) throw new Error(`balance: ${res.status} ${res.text}`);
}

/** A local date `days` from today (UTC). */
export const dayFromToday = (days: number) => new Date(Date.now() + days * 86_400_000).toISOString().slice(0, 10);

export const requestBody = (place: TimeOffPlace, date = dayFromToday(7), hours = 8, extra: Record<string, unknown> = {}) => ({
  workerId: place.worker.id,
  policyId: place.policy.id,
  startTime: `${date}T09:00:00Z`,
  endTime: `${date}T${String(9 + hours).padStart(2, "0")}:00:00Z`,
  ...extra,
});

export const createRequest = (place: TimeOffPlace, body: Record<string, unknown>, token = place.workerToken) =>
  api("POST", orgPath(place.org, "/time-off-requests"), { token, body });

export const ledgerOf = async (workerPolicyId: string) =>
  (
    await tenantDb()
      .prepare(
        "SELECT kind, hours, source_type, source_id, effective_date FROM time_off_ledger WHERE worker_policy_id = ? ORDER BY created_at, rowid",
      )
      .bind(workerPolicyId)
      .all<{ kind: string; hours: number; source_type: string; source_id: string; effective_date: string }>()
  ).results;

export const balanceOf = async (place: TimeOffPlace, worker = place.worker) => {
  const res = await api("GET", orgPath(place.org, `/worker-policies?workerId=${worker.id}`), { token: place.org.adminToken });
  return (res.body as { policyId: string; hoursBalance: number; availableBalance: number; id: string }[]).find(
    (w) => w.policyId === place.policy.id,
  )!;
};

/**
 * Makes a place's policy Active, and its organization's staff exist, since `since`, so that a test runs the accrual
 * pass at simulated dates from there. The place was created at the real now, and creation grants what is due at
 * that moment (on a Monday, a weekly Monday policy's period): those entries are erased with the pass's watermark, so
 * the test answers the same whatever day it runs. `db` is the organization's shard (default: the tenant database).
 */
export async function simulateSince(place: TimeOffPlace, since: string, db: D1Database = tenantDb()) {
  const ms = Date.parse(since);
  const balances = "SELECT id FROM worker_policies WHERE policy_id = ?";
  await db.batch([
    db.prepare("UPDATE time_off_policies SET activated_at = ?, shift_cursor = NULL WHERE id = ?").bind(ms, place.policy.id),
    db.prepare("UPDATE staff_members SET created_at = ? WHERE organization_id = ?").bind(ms, place.org.id),
    db.prepare(`DELETE FROM time_off_ledger WHERE kind = 'accrual' AND worker_policy_id IN (${balances})`).bind(place.policy.id),
    db.prepare("UPDATE worker_policies SET accrued_through = NULL WHERE policy_id = ?").bind(place.policy.id),
  ]);
}
