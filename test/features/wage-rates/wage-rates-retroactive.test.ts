import { describe, expect, it } from "vitest";
import { api } from "../../helpers/api";
import { createLocation } from "../../helpers/locations";
import { approve, closePeriod, createRuleSet, feed, payLines, workDay } from "../../helpers/pay";
import { tenantDb } from "../../helpers/shards";
import { createRole } from "../../helpers/timesheets";
import { createWorkplace, type Workplace } from "../../helpers/workplace";

// Issue 44 item 7 (29 CFR 778.303): a wage rate written with a past effectiveFrom re-rates, in its own batch, the
// recorded shifts whose wage came from resolution; a wage set by hand stays; pay equals what resolve answers.

const ratesPath = (w: Workplace, suffix = "") => `/api/organizations/${w.org.id}/wage-rates${suffix}`;

async function createRate(w: Workplace, body: Record<string, unknown>) {
  const res = await api("POST", ratesPath(w), { token: w.org.adminToken, body: { employeeId: w.staff.id, ...body } });
  if (res.status !== 201) throw new Error(`wage rate: ${res.status} ${res.text}`);
  return res.body as { id: string };
}

const deleteRate = async (w: Workplace, id: string) => {
  const res = await api("DELETE", ratesPath(w, `/${id}`), { token: w.org.adminToken });
  expect(res.status).toBe(200);
};

const shiftOf = async (w: Workplace, id: string) =>
  (await api("GET", `/api/timesheets/${id}`, { token: w.org.adminToken })).body as { hourlyWage: number; wageRateId: string | null };

const resolve = async (w: Workplace, query: string) =>
  (await api("GET", ratesPath(w, `/resolve?employeeId=${w.staff.id}&${query}`), { token: w.org.adminToken })).body as {
    hourlyRate: number;
    wageRateId: string | null;
  };

/** A shift of `hours` from 08:00 UTC whose wage the rules resolve (no hourlyWage in the request). */
const resolvedDay = (w: Workplace, date: string, hours: number, body: Record<string, unknown> = {}) =>
  workDay(w, date, hours, { hourlyWage: undefined, ...body }) as Promise<{ id: string; hourlyWage: number }>;

const grossPay = async (w: Workplace, startDate: string, endDate: string) => {
  const res = await payLines(w, { startDate, endDate });
  expect(res.status).toBe(200);
  return res.body.totals.grossPay as number;
};

const shiftUpdates = async (w: Workplace) =>
  (await feed(w.org)).filter((e) => e.type === "shift.updated").map((e) => ({ id: e.data.id, hourlyWage: e.data.hourlyWage }));

const auditRows = async (w: Workplace, shiftId: string) =>
  (
    await tenantDb()
      .prepare("SELECT action, before, after FROM shift_audits WHERE organization_id = ? AND shift_id = ? ORDER BY at, id")
      .bind(w.org.id, shiftId)
      .all<{ action: string; before: string | null; after: string | null }>()
  ).results.map((r) => ({
    action: r.action,
    before: r.before && (JSON.parse(r.before) as { hourlyWage: number }).hourlyWage,
    after: r.after && (JSON.parse(r.after) as { hourlyWage: number }).hourlyWage,
  }));

// 2025-09-01 is a Monday; FLSA weeks from Sunday: Aug 31 – Sep 6 and Sep 7 – 13, each under 40 hours.
const DAYS = ["2025-09-01", "2025-09-02", "2025-09-03", "2025-09-08", "2025-09-09"];

describe("retroactive wage rates are paid (issue 44 item 7)", () => {
  it("a $24 rate from 2025-09-01 created after shifts at the role's $16 re-rates them: $760 → $1,140; deleting it: back to $760", async () => {
    const w = await createWorkplace();
    await createRuleSet(w.org, { preset: "FLSA", workweekStartsOn: "Sunday", effectiveFrom: "2025-01-01" });
    const role = await createRole(w, 16);
    const before = await resolvedDay(w, "2025-08-29", 4, { roleId: role.id });
    const shifts: { id: string; hourlyWage: number }[] = [];
    for (const date of DAYS) shifts.push(await resolvedDay(w, date, 9.5, { roleId: role.id }));
    expect(shifts.map((s) => s.hourlyWage)).toEqual([16, 16, 16, 16, 16]);
    // 5 shifts × 9.5 h = 47.5 h at $16 = $760.00
    expect(await grossPay(w, "2025-09-01", "2025-09-13")).toBe(760);

    const rate = await createRate(w, { hourlyRate: 24, effectiveFrom: "2025-09-01" });
    expect(await resolve(w, `roleId=${role.id}&locationId=${w.location.id}&date=2025-09-01`)).toMatchObject({
      hourlyRate: 24,
      wageRateId: rate.id,
    });
    // 47.5 h at the declared $24 = $1,140.00
    expect(await grossPay(w, "2025-09-01", "2025-09-13")).toBe(1140);
    for (const shift of shifts) expect(await shiftOf(w, shift.id)).toMatchObject({ hourlyWage: 24, wageRateId: rate.id });
    // The day before the rate keeps the role's wage: 4 h × $16 = $64.00.
    expect(await shiftOf(w, before.id)).toMatchObject({ hourlyWage: 16, wageRateId: null });
    expect(await grossPay(w, "2025-08-29", "2025-08-29")).toBe(64);
    // Each re-rated shift records what a PATCH of its wage records: a shift.updated event and an audit "update".
    expect(await shiftUpdates(w)).toEqual(expect.arrayContaining(shifts.map((s) => ({ id: s.id, hourlyWage: 24 }))));
    expect((await shiftUpdates(w)).filter((e) => e.id === before.id)).toEqual([]);
    expect(await auditRows(w, shifts[0]!.id)).toEqual([
      { action: "create", before: null, after: 16 },
      { action: "update", before: 16, after: 24 },
    ]);

    await deleteRate(w, rate.id);
    expect(await resolve(w, `roleId=${role.id}&date=2025-09-01`)).toMatchObject({ hourlyRate: 16, wageRateId: null });
    // Back to the role's $16: 47.5 h × $16 = $760.00
    expect(await grossPay(w, "2025-09-01", "2025-09-13")).toBe(760);
    for (const shift of shifts) expect(await shiftOf(w, shift.id)).toMatchObject({ hourlyWage: 16, wageRateId: null });
    const updates = await shiftUpdates(w);
    expect(updates.filter((e) => e.id === shifts[0]!.id).map((e) => e.hourlyWage)).toEqual([24, 16]);
  });

  it("a wage set by hand stays, at creation or by PATCH; a resolved one beside it is re-rated", async () => {
    const w = await createWorkplace();
    const role = await createRole(w, 16);
    const resolved = await resolvedDay(w, "2025-09-01", 8, { roleId: role.id });
    const byHand = await workDay(w, "2025-09-02", 8, { roleId: role.id, hourlyWage: 20 });
    const patched = await resolvedDay(w, "2025-09-03", 8, { roleId: role.id });
    expect((await api("PATCH", `/api/timesheets/${patched.id}`, { token: w.org.adminToken, body: { hourlyWage: 18 } })).status).toBe(200);
    await createRate(w, { hourlyRate: 24, effectiveFrom: "2025-09-01" });
    expect(await shiftOf(w, resolved.id)).toMatchObject({ hourlyWage: 24 });
    expect(await shiftOf(w, byHand.id)).toMatchObject({ hourlyWage: 20, wageRateId: null });
    expect(await shiftOf(w, patched.id)).toMatchObject({ hourlyWage: 18, wageRateId: null });
    // 8 h × $24 + 8 h × $20 + 8 h × $18 = 192 + 160 + 144 = $496.00
    expect(await grossPay(w, "2025-09-01", "2025-09-03")).toBe(496);
    // A change of role re-resolves: the wage is the rules' again, and follows the rates from then on.
    const other = await createRole(w, 17, "Other");
    const moved = await api("PATCH", `/api/timesheets/${byHand.id}`, { token: w.org.adminToken, body: { roleId: other.id } });
    expect(moved.body).toMatchObject({ hourlyWage: 24 });
    const raise = await createRate(w, { roleId: other.id, hourlyRate: 26, effectiveFrom: "2025-09-02" });
    expect(await shiftOf(w, byHand.id)).toMatchObject({ hourlyWage: 26, wageRateId: raise.id });
    expect(await shiftOf(w, resolved.id)).toMatchObject({ hourlyWage: 24 });
  });

  it("precedence as resolve's: role and location > role > location > staff member only > the role's wage; each wins, and each delete re-rates back", async () => {
    const w = await createWorkplace();
    const role = await createRole(w, 16);
    const elsewhere = await createLocation(w.org, { timezone: "America/New_York" });
    const here = await resolvedDay(w, "2025-09-03", 8, { roleId: role.id });
    const there = await resolvedDay(w, "2025-09-04", 8, { roleId: role.id, locationId: elsewhere.id });
    const agrees = async (shift: { id: string }, query: string, hourlyWage: number) => {
      const stored = await shiftOf(w, shift.id);
      expect(stored.hourlyWage).toBe(hourlyWage);
      expect(await resolve(w, query)).toMatchObject({ hourlyRate: stored.hourlyWage, wageRateId: stored.wageRateId });
    };
    const check = async (hereWage: number, thereWage: number) => {
      await agrees(here, `roleId=${role.id}&locationId=${w.location.id}&date=2025-09-03`, hereWage);
      await agrees(there, `roleId=${role.id}&locationId=${elsewhere.id}&date=2025-09-04`, thereWage);
    };
    await check(16, 16);
    const staffOnly = await createRate(w, { hourlyRate: 20, effectiveFrom: "2025-09-01" });
    await check(20, 20);
    const location = await createRate(w, { locationId: w.location.id, hourlyRate: 21, effectiveFrom: "2025-09-01" });
    await check(21, 20);
    const roleRate = await createRate(w, { roleId: role.id, hourlyRate: 22, effectiveFrom: "2025-09-01" });
    await check(22, 22);
    // A newer location rate does not beat the role's rate where both apply.
    const newerLocation = await createRate(w, { locationId: w.location.id, hourlyRate: 30, effectiveFrom: "2025-09-02" });
    await check(22, 22);
    const both = await createRate(w, { roleId: role.id, locationId: w.location.id, hourlyRate: 23, effectiveFrom: "2025-09-01" });
    await check(23, 22);
    await deleteRate(w, both.id);
    await check(22, 22);
    await deleteRate(w, roleRate.id);
    await check(30, 20);
    await deleteRate(w, newerLocation.id);
    await check(21, 20);
    await deleteRate(w, location.id);
    await check(20, 20);
    await deleteRate(w, staffOnly.id);
    await check(16, 16);
  });

  it("PATCH moves the rate: effectiveFrom later re-rates the days left behind back; a stale If-Match (412) re-rates nothing", async () => {
    const w = await createWorkplace();
    const role = await createRole(w, 16);
    const first = await resolvedDay(w, "2025-09-01", 8, { roleId: role.id });
    const second = await resolvedDay(w, "2025-09-05", 8, { roleId: role.id });
    const rate = await createRate(w, { hourlyRate: 24, effectiveFrom: "2025-09-01" });
    const stale = await api("PATCH", ratesPath(w, `/${rate.id}`), {
      token: w.org.adminToken,
      headers: { "If-Match": '"1"' },
      body: { hourlyRate: 30 },
    });
    expect(stale.status).toBe(412);
    expect(await shiftOf(w, first.id)).toMatchObject({ hourlyWage: 24 });
    const eventsBefore = (await shiftUpdates(w)).length;
    const moved = await api("PATCH", ratesPath(w, `/${rate.id}`), { token: w.org.adminToken, body: { effectiveFrom: "2025-09-03" } });
    expect(moved.status).toBe(200);
    expect(await shiftOf(w, first.id)).toMatchObject({ hourlyWage: 16, wageRateId: null });
    expect(await shiftOf(w, second.id)).toMatchObject({ hourlyWage: 24, wageRateId: rate.id });
    // One event: the shift left behind; the other one's wage did not change.
    expect((await shiftUpdates(w)).slice(eventsBefore)).toEqual([{ id: first.id, hourlyWage: 16 }]);
    // 8 h × $16 + 8 h × $24 = $320.00
    expect(await grossPay(w, "2025-09-01", "2025-09-05")).toBe(320);
    // A write that changed no rate re-rates nothing, even a shift out of step with its rate (set here by hand).
    await tenantDb().prepare("UPDATE shifts SET hourly_wage = 99 WHERE id = ?").bind(second.id).run();
    const stale2 = await api("PATCH", ratesPath(w, `/${rate.id}`), {
      token: w.org.adminToken,
      headers: { "If-Match": '"1"' },
      body: { hourlyRate: 25 },
    });
    expect(stale2.status).toBe(412);
    expect(await shiftOf(w, second.id)).toMatchObject({ hourlyWage: 99 });
  });

  it("a rate that would re-rate a shift a closed period froze is 409 PAY_PERIOD_CLOSED and changes nothing; one that re-rates none is 201", async () => {
    const w = await createWorkplace();
    const PERIOD = "2026-09-14";
    await createRuleSet(w.org, { preset: "FLSA", workweekStartsOn: "Sunday" });
    const role = await createRole(w, 16);
    const other = await createRole(w, 17, "Other");
    const frozen = await resolvedDay(w, PERIOD, 8, { roleId: role.id });
    const after = await resolvedDay(w, "2026-10-05", 8, { roleId: role.id });
    expect((await closePeriod(w, PERIOD, { approveAll: true })).status).toBe(200);
    const eventsBefore = (await feed(w.org)).length;

    const refused = await api("POST", ratesPath(w), {
      token: w.org.adminToken,
      body: { employeeId: w.staff.id, hourlyRate: 24, effectiveFrom: "2026-09-01" },
    });
    expect(refused.status).toBe(409);
    expect(refused.body).toMatchObject({ code: "PAY_PERIOD_CLOSED", periodId: PERIOD });
    expect(await shiftOf(w, frozen.id)).toMatchObject({ hourlyWage: 16 });
    expect(await shiftOf(w, after.id)).toMatchObject({ hourlyWage: 16 });
    expect((await feed(w.org)).length).toBe(eventsBefore);
    expect((await api("GET", ratesPath(w), { token: w.org.adminToken })).body).toEqual([]);

    // The same date for another role touches no frozen shift; a rate after the frozen weeks re-rates the later shift.
    expect(
      (
        await api("POST", ratesPath(w), {
          token: w.org.adminToken,
          body: { employeeId: w.staff.id, roleId: other.id, hourlyRate: 24, effectiveFrom: "2026-09-01" },
        })
      ).status,
    ).toBe(201);
    const later = await createRate(w, { hourlyRate: 24, effectiveFrom: "2026-09-28" });
    expect(await shiftOf(w, after.id)).toMatchObject({ hourlyWage: 24, wageRateId: later.id });
    expect(await shiftOf(w, frozen.id)).toMatchObject({ hourlyWage: 16 });
    // Moving it back over the frozen shift is refused the same way.
    const back = await api("PATCH", ratesPath(w, `/${later.id}`), { token: w.org.adminToken, body: { effectiveFrom: "2026-09-02" } });
    expect(back.status).toBe(409);
    expect(back.body).toMatchObject({ code: "PAY_PERIOD_CLOSED", periodId: PERIOD });
    expect(await shiftOf(w, frozen.id)).toMatchObject({ hourlyWage: 16 });
  });

  it("a rate that would re-rate a shift of an approved timesheet is 409 TIMESHEET_APPROVED and changes nothing", async () => {
    const w = await createWorkplace();
    const PERIOD = "2026-09-14";
    const role = await createRole(w, 16);
    const approved = await resolvedDay(w, PERIOD, 8, { roleId: role.id });
    expect((await approve(w, PERIOD, [w.staff.id])).status).toBe(200);
    const body = { employeeId: w.staff.id, hourlyRate: 24, effectiveFrom: "2026-09-01" };
    const refused = await api("POST", ratesPath(w), { token: w.org.adminToken, body });
    expect(refused.status).toBe(409);
    expect(refused.body.code).toBe("TIMESHEET_APPROVED");
    expect(await shiftOf(w, approved.id)).toMatchObject({ hourlyWage: 16 });
  });
});
