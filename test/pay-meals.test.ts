import { describe, expect, it } from "vitest";
import { api } from "./helpers/api";
import { createRuleSet, payLines } from "./helpers/pay";
import { tenantDb } from "./helpers/shards";
import { clockIn, createBreakType, createWorkplace, punch, type Workplace } from "./helpers/workplace";

/* Issue 44, items 2 and 4: a meal never taken is never deducted; California's second meal period. */

type Line = { date: string; shiftId: string | null; kind: string; minutes: number; rule: string | null; amount: number | null };

/** Yesterday (UTC): always in the past and within the 72 hours an offline punch may go back. */
const yesterday = () => new Date(Date.now() - 86_400_000).toISOString().slice(0, 10);

async function payOf(w: Workplace, date: string) {
  const res = await payLines(w, { startDate: date, endDate: date });
  expect(res.status).toBe(200);
  expect(res.body.employees).toHaveLength(1);
  return res.body.employees[0] as { grossPay: number; penaltyHours: number; lines: Line[] };
}

const setWage = async (w: Workplace, hourlyWage: number) => {
  const res = await api("PATCH", `/api/organizations/${w.org.id}/roles/${w.roleId}`, { token: w.org.adminToken, body: { hourlyWage } });
  expect(res.status).toBe(200);
};

describe("a mandatory unpaid meal never taken is not deducted (issue 44, item 2)", () => {
  it("08:00–16:00 clocked from a phone with no break: no break row, $180 in pay lines, MISSED_MEAL_BREAK raised", async () => {
    const w = await createWorkplace({ timezone: "UTC" });
    await setWage(w, 20);
    await createRuleSet(w.org, { name: "California", preset: "CALIFORNIA", effectiveFrom: "2020-01-01" });
    await createBreakType(w, { name: "Meal", mandatory: true, paid: false, durationMinutes: 30, frequencyMinutes: 300 });
    const date = yesterday();
    const opened = await clockIn(w, { occurredAt: `${date}T08:00:00Z` });
    expect(opened.status).toBe(200);
    const out = await punch(w, "clock-out", { occurredAt: `${date}T16:00:00Z` });
    expect(out.status).toBe(200);
    expect(out.body).toMatchObject({ duration: 480, totalUnpaidBreaks: 0, payableDuration: 480, breaks: [] });
    const rows = await tenantDb().prepare("SELECT id FROM shift_breaks WHERE shift_id = ?").bind(opened.body.id).all();
    expect(rows.results).toEqual([]);

    const pay = await payOf(w, date);
    // 8 h × $20 = $160 of work, plus one hour's meal premium at the regular rate $20 (Cal. Labor Code 226.7(c)): $180.
    expect(pay.grossPay).toBe(180);
    expect(pay.lines.map((l) => [l.kind, l.minutes, l.amount])).toEqual([
      ["REGULAR", 480, 160],
      ["MEAL_PENALTY", 60, 20],
    ]);

    const exceptions = await api(
      "GET",
      `/api/organizations/${w.org.id}/attendance-exceptions?startDate=${date}&endDate=${date}&type=MISSED_MEAL_BREAK`,
      {
        token: w.org.adminToken,
      },
    );
    // The meal rule's first period is due after 300 minutes of work; 480 were worked: 180 past it.
    expect(exceptions.body.map((e: { type: string; shiftId: string; minutes: number }) => [e.type, e.shiftId, e.minutes])).toEqual([
      ["MISSED_MEAL_BREAK", opened.body.id, 180],
    ]);
  });

  it("without a meal rule (FLSA) the mandatory type not taken still raises MISSED_MEAL_BREAK and deducts nothing: $160", async () => {
    const w = await createWorkplace({ timezone: "UTC" });
    await setWage(w, 20);
    await createRuleSet(w.org, { name: "Federal", preset: "FLSA", effectiveFrom: "2020-01-01" });
    await createBreakType(w, { name: "Meal", mandatory: true, paid: false, durationMinutes: 30, frequencyMinutes: 300 });
    const date = yesterday();
    const opened = await clockIn(w, { occurredAt: `${date}T08:00:00Z` });
    expect((await punch(w, "clock-out", { occurredAt: `${date}T16:00:00Z` })).body.payableDuration).toBe(480);
    // 8 h × $20, no deduction, no premium (the FLSA has no meal rule).
    expect((await payOf(w, date)).grossPay).toBe(160);
    const exceptions = await api(
      "GET",
      `/api/organizations/${w.org.id}/attendance-exceptions?startDate=${date}&endDate=${date}&type=MISSED_MEAL_BREAK`,
      {
        token: w.org.adminToken,
      },
    );
    // Due after 300 minutes on shift, not taken in 480: 180 past it.
    expect(exceptions.body.map((e: { type: string; shiftId: string; minutes: number }) => [e.type, e.shiftId, e.minutes])).toEqual([
      ["MISSED_MEAL_BREAK", opened.body.id, 180],
    ]);
  });
});
