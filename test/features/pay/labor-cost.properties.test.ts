import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { api } from "../../helpers/api";
import { unique } from "../../helpers/fixtures";
import { createLocation } from "../../helpers/locations";
import { createRuleSet } from "../../helpers/pay";
import { tenantDb } from "../../helpers/shards";
import { createStaffMember } from "../../helpers/staff";
import { seedShifts } from "../../helpers/timesheets";
import { createWorkplace, type Workplace } from "../../helpers/workplace";

const KEYS = ["date", "location", "role", "costCode", "employee"] as const;
const NEW_YORK_SUMMER = -240;

async function costCode(w: Workplace) {
  const path = `/api/organizations/${w.org.id}/cost-codes`;
  const created = await api("POST", path, { token: w.org.adminToken, body: { code: unique("C"), name: "Code" } });
  if (created.status !== 201) throw new Error(`cost code: ${created.status} ${created.text}`);
  return created.body.id as string;
}

const shiftArb = fc.record({
  employee: fc.integer({ min: 0, max: 1 }),
  location: fc.integer({ min: 0, max: 1 }),
  code: fc.integer({ min: 0, max: 2 }),
  day: fc.integer({ min: 0, max: 6 }),
  start: fc.integer({ min: 0, max: 1380 }),
  minutes: fc.integer({ min: 1, max: 780 }),
  wage: fc.integer({ min: 725, max: 5000 }).map((c) => c / 100),
  unpaidBreakMinutes: fc.option(fc.integer({ min: 10, max: 45 }), { freq: 3 }),
});

/** Every page of pay lines' totals, summed in cents. */
async function grossPayCents(w: Workplace, query: Record<string, string>, limit = "1") {
  let cents = 0;
  let next: string | null = `/api/timesheets/pay?${new URLSearchParams({ ...query, limit })}`;
  while (next) {
    const res = await api("GET", next, { token: w.org.adminToken });
    expect(res.status).toBe(200);
    cents += Math.round(res.body.totals.grossPay * 100);
    next = /<([^>]+)>; rel="next"/.exec(res.headers.get("Link") ?? "")?.[1] ?? null;
  }
  return cents;
}

describe("GET /api/timesheets/labor-cost properties", () => {
  it("over random California weeks, Σ rows' laborCost = totals = the pay lines' grossPay to the cent, whatever the keys", async () => {
    const w = await createWorkplace();
    await createRuleSet(w.org, { name: "California", preset: "CALIFORNIA" });
    const colleague = await createStaffMember(w.org, { locationIds: [w.location.id] });
    const employees = [w.staff.id, colleague.id];
    const locations = [w.location.id, (await createLocation(w.org)).id];
    const codes = [await costCode(w), await costCode(w), null];
    let run = 0;
    await fc.assert(
      fc.asyncProperty(fc.array(shiftArb, { minLength: 1, maxLength: 14 }), fc.subarray([...KEYS]), async (specs, keys) => {
        // Each run its own week (two apart, so no shift of one spills into another's workweeks).
        const monday = new Date(Date.parse("2026-06-01T00:00:00Z") + run * 14 * 86_400_000);
        run += 1;
        await seedShifts(
          w.org.id,
          specs.map((s) => ({
            employeeId: employees[s.employee]!,
            locationId: locations[s.location]!,
            roleId: w.roleId,
            start: new Date(monday.getTime() + (s.day * 1440 + s.start - NEW_YORK_SUMMER) * 60_000),
            minutes: s.minutes,
            utcOffset: NEW_YORK_SUMMER,
            hourlyWage: s.wage,
            unpaidBreakMinutes: s.unpaidBreakMinutes ?? undefined,
            costCodeId: codes[s.code],
          })),
        );
        const range = {
          startDate: monday.toISOString().slice(0, 10),
          endDate: new Date(monday.getTime() + 6 * 86_400_000).toISOString().slice(0, 10),
        };
        const res = await api("GET", `/api/timesheets/labor-cost?${new URLSearchParams({ ...range, groupBy: keys.join(",") })}`, {
          token: w.org.adminToken,
        });
        expect(res.status).toBe(200);
        const rows = res.body.rows as { laborCost: number; overtimeMinutes: number }[];
        const gross = await grossPayCents(w, range);
        expect(rows.reduce((sum, r) => sum + Math.round(r.laborCost * 100), 0)).toBe(gross);
        expect(Math.round(res.body.totals.laborCost * 100)).toBe(gross);
        expect(rows.reduce((sum, r) => sum + r.overtimeMinutes, 0)).toBe(res.body.totals.overtimeMinutes);
      }),
      { numRuns: 8 },
    );
  });

  it("reads the staff members 500 at a time: 501 of them are two pages, every one counted once", async () => {
    const w = await createWorkplace();
    const records = Array.from({ length: 501 }, (_, i) => ({ externalId: `lc-${i}`, name: `Staff ${i}` }));
    const sync = await api("POST", `/api/organizations/${w.org.id}/staffmembers/sync`, { token: w.org.adminToken, body: { records } });
    expect(sync.status, sync.text).toBe(200);
    const { results } = await tenantDb()
      .prepare("SELECT id FROM staff_members WHERE organization_id = ? AND id <> ?")
      .bind(w.org.id, w.staff.id)
      .all<{ id: string }>();
    expect(results).toHaveLength(501);
    const monday = new Date("2026-06-01T12:00:00Z");
    await seedShifts(
      w.org.id,
      results.map((r, i) => ({
        employeeId: r.id,
        locationId: w.location.id,
        roleId: w.roleId,
        start: monday,
        minutes: 60 + (i % 3),
        utcOffset: 0,
        hourlyWage: 20,
      })),
    );
    const range = { startDate: "2026-06-01", endDate: "2026-06-07" };
    const res = await api("GET", `/api/timesheets/labor-cost?${new URLSearchParams({ ...range, groupBy: "employee" })}`, {
      token: w.org.adminToken,
    });
    expect(res.status).toBe(200);
    expect(new Set(res.body.rows.map((r: { employeeId: string }) => r.employeeId)).size).toBe(501);
    // 167 × 60 + 167 × 61 + 167 × 62 minutes at $20.
    expect(res.body.totals).toMatchObject({ regularMinutes: 167 * 183, laborCost: (167 * 183 * 20) / 60 });
    expect(Math.round(res.body.totals.laborCost * 100)).toBe(await grossPayCents(w, range, "500"));
  });
});
