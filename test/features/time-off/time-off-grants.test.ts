import { describe, expect, it } from "vitest";
import { createDatabase } from "@/data/client";
import { runAccrualPass } from "@/jobs/accrual-pass";
import { api } from "../../helpers/api";
import { createOrganization, unique } from "../../helpers/fixtures";
import { createLocation } from "../../helpers/locations";
import { tenantDb } from "../../helpers/shards";
import { createStaffMember, staffPath, staffToken } from "../../helpers/staff";
import { balanceOf, createPolicy, createRequest, ledgerOf, orgPath, requestBody, type TimeOffPlace } from "../../helpers/time-off";

const allAtOnce = {
  limitSettings: { isFixedAmount: true, fixedAmount: { hours: 40, accrualCycle: "AllAtOnce" } },
  requiresApproval: false,
};

async function placeOf(policy: Record<string, unknown>, worker: Record<string, unknown> = {}, activate = true): Promise<TimeOffPlace> {
  const org = await createOrganization({ timezone: "UTC" });
  const created = await createStaffMember(org, { externalId: unique("ext"), accessRoleName: "Employee", ...worker });
  return { org, worker: created, workerToken: await staffToken(org, created.id), policy: await createPolicy(org, policy, activate) };
}

/** The Cron's pass right after: it must add nothing to what the change granted. */
async function passAddsNothing(place: TimeOffPlace) {
  const balance = await balanceOf(place);
  const before = await ledgerOf(balance.id);
  await runAccrualPass(createDatabase(tenantDb()));
  await runAccrualPass(createDatabase(tenantDb()));
  expect(await ledgerOf(balance.id)).toEqual(before);
}

describe("grants are visible the moment a policy applies", () => {
  it("activating an AllAtOnce policy grants at once: the first request is auto-approved, and the Cron adds nothing", async () => {
    const place = await placeOf(allAtOnce);
    expect(await balanceOf(place)).toMatchObject({ hoursBalance: 40, availableBalance: 40 });
    const request = await createRequest(place, requestBody(place));
    expect(request.status, request.text).toBe(201);
    expect(request.body.status).toBe("approved");
    await passAddsNothing(place);
    expect((await balanceOf(place)).hoursBalance).toBe(32);
  });

  it("a periodic policy grants the current period's accrual at activation, as the Cron would have", async () => {
    const today = new Date().toLocaleDateString("en-US", { weekday: "long", timeZone: "UTC" });
    const weekly = {
      limitSettings: {
        isFixedAmount: true,
        fixedAmount: { hours: 2, accrualCycle: "Periodic", accrualFrequency: "EveryOneWeek", accrualDay: today },
      },
    };
    const place = await placeOf(weekly);
    expect((await balanceOf(place)).hoursBalance).toBe(2);
    await passAddsNothing(place);
  });

  it("a new staff member the default settings match has the grant at creation", async () => {
    const place = await placeOf(allAtOnce);
    const newcomer = await createStaffMember(place.org, { externalId: unique("ext"), accessRoleName: "Employee" });
    expect((await balanceOf(place, newcomer)).hoursBalance).toBe(40);
    await passAddsNothing({ ...place, worker: newcomer });
  });

  it("a staff sync and a PATCH that makes the rule match grant in their own write", async () => {
    const org = await createOrganization({ timezone: "UTC" });
    const location = await createLocation(org);
    const policy = await createPolicy(org, { ...allAtOnce, defaultSettings: { assignedStaff: { type: "Location", value: location.id } } });
    const synced = await api("POST", staffPath(org, "/sync"), {
      token: org.adminToken,
      body: { records: [{ externalId: unique("ext"), name: "Synced", locationIds: [location.id] }] },
    });
    expect(synced.status, synced.text).toBe(200);
    const place = { org, worker: synced.body.records[0], workerToken: "", policy };
    expect((await balanceOf(place)).hoursBalance).toBe(40);
    const moved = await createStaffMember(org, { externalId: unique("ext"), accessRoleName: "Employee" });
    expect((await balanceOf(place, moved)).hoursBalance).toBe(0);
    const patched = await api("PATCH", staffPath(org, `/${moved.id}`), { token: org.adminToken, body: { locationIds: [location.id] } });
    expect(patched.status).toBe(200);
    expect((await balanceOf(place, moved)).hoursBalance).toBe(40);
    await passAddsNothing({ ...place, worker: moved });
  });

  it("operation 8 including a worker grants at once, and a target balance in the same patch still wins", async () => {
    const place = await placeOf({ ...allAtOnce, defaultSettings: { assignedStaff: { type: "EmploymentType", value: "seasonal" } } });
    expect((await balanceOf(place)).hoursBalance).toBe(0);
    const include = (body: Record<string, unknown>, worker = place.worker) =>
      api("PATCH", orgPath(place.org, `/policies/${place.policy.id}`), {
        token: place.org.adminToken,
        body: { workerPolicies: [{ employee: { externalEmployeeId: worker.externalId }, isIncluded: true, ...body }] },
      });
    expect((await include({})).status).toBe(200);
    expect((await balanceOf(place)).hoursBalance).toBe(40);
    await passAddsNothing(place);
    const other = await createStaffMember(place.org, { externalId: unique("ext"), accessRoleName: "Employee" });
    expect((await include({ hoursBalance: 10 }, other)).status).toBe(200);
    expect((await balanceOf(place, other)).hoursBalance).toBe(10);
  });
});
