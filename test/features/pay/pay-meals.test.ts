import { describe, expect, it } from "vitest";
import { api } from "../../helpers/api";
import { createRuleSet, feed, payLines } from "../../helpers/pay";
import { tenantDb } from "../../helpers/shards";
import { createManual } from "../../helpers/timesheets";
import { clockIn, createBreakType, createWorkplace, punch, type Workplace } from "../../helpers/workplace";

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

describe("California's second meal period (issue 44, item 4)", () => {
  const waiversPath = (w: Workplace) => `/api/organizations/${w.org.id}/staffmembers/${w.staff.id}/meal-waivers`;
  /** A manual shift on 2026-06-01 (UTC) from `from` to `to` with one unpaid 30-minute meal at 10:00, at $20. */
  const day = (w: Workplace, from: string, to: string) =>
    createManual(w, {
      startTime: `2026-06-01T${from}:00Z`,
      endTime: `2026-06-01T${to}:00Z`,
      hourlyWage: 20,
      breaks: [{ startTime: "2026-06-01T10:00:00Z", endTime: "2026-06-01T10:30:00Z", name: "Lunch" }],
    });

  it("06:00–19:00 with one 30-minute meal (12.5 h worked) pays $320, the second meal's premium included", async () => {
    const w = await createWorkplace({ timezone: "UTC" });
    await createRuleSet(w.org, { name: "California", preset: "CALIFORNIA", effectiveFrom: "2020-01-01" });
    await day(w, "06:00", "19:00");
    const pay = await payOf(w, "2026-06-01");
    // 8 h × 20 + 4 h × 30 + 0.5 h × 40 = 160 + 120 + 20 = 300; the second meal missed: one premium hour × 20. 320.
    expect(pay.grossPay).toBe(320);
    expect(pay.lines.map((l) => [l.kind, l.minutes, l.amount])).toEqual([
      ["REGULAR", 480, 160],
      ["OVERTIME", 240, 120],
      ["DOUBLE_TIME", 30, 20],
      ["MEAL_PENALTY", 60, 20],
    ]);
  });

  it("a waived second meal on an 11.5-hour day (≤ 12 h) pays $265, no premium; without the waiver $285", async () => {
    const w = await createWorkplace({ timezone: "UTC" });
    const rules = await createRuleSet(w.org, { name: "California", preset: "CALIFORNIA", effectiveFrom: "2020-01-01" });
    expect(rules.mealBreaks).toEqual([
      { afterMinutes: 300, minimumMinutes: 30, waivableUpToMinutes: 360 },
      { afterMinutes: 600, minimumMinutes: 30, waivableUpToMinutes: 720 },
    ]);
    expect(rules.mealBreak).toEqual({ afterMinutes: 300, minimumMinutes: 30, penaltyHours: 1 });
    await day(w, "06:00", "18:00");
    // 690 minutes worked: 8 h × 20 + 3.5 h × 30 = 160 + 105 = 265, + the second meal's premium hour × 20 = 285.
    expect((await payOf(w, "2026-06-01")).grossPay).toBe(285);

    const put = await api("PUT", waiversPath(w), {
      token: w.org.adminToken,
      body: { effectiveFrom: "2026-05-01", firstMeal: false, secondMeal: true },
    });
    expect(put.status).toBe(200);
    expect(put.body).toEqual({ employeeId: w.staff.id, waivers: [{ effectiveFrom: "2026-05-01", firstMeal: false, secondMeal: true }] });
    // Waived (Labor Code 512(a): the day is at most 12 h and the first meal was taken): 265, no premium.
    const waived = await payOf(w, "2026-06-01");
    expect(waived.grossPay).toBe(265);
    expect(waived.lines.some((l) => l.kind === "MEAL_PENALTY")).toBe(false);
    expect((await feed(w.org)).filter((e) => e.type === "staff_member.meal_waivers_updated")).toHaveLength(1);

    // The same PUT again changes nothing and records no event; a revocation from June 1 restores the premium.
    await api("PUT", waiversPath(w), {
      token: w.org.adminToken,
      body: { effectiveFrom: "2026-05-01", firstMeal: false, secondMeal: true },
    });
    expect((await feed(w.org)).filter((e) => e.type === "staff_member.meal_waivers_updated")).toHaveLength(1);
    await api("PUT", waiversPath(w), {
      token: w.org.adminToken,
      body: { effectiveFrom: "2026-06-01", firstMeal: false, secondMeal: false },
    });
    expect((await payOf(w, "2026-06-01")).grossPay).toBe(285);
    const read = await api("GET", waiversPath(w), { token: w.token });
    expect(read.body.waivers.map((v: { effectiveFrom: string }) => v.effectiveFrom)).toEqual(["2026-05-01", "2026-06-01"]);
  });

  it("the waiver does not reach a workday over 12 h: 12.5 h with the second waived is still $320", async () => {
    const w = await createWorkplace({ timezone: "UTC" });
    await createRuleSet(w.org, { name: "California", preset: "CALIFORNIA", effectiveFrom: "2020-01-01" });
    await api("PUT", waiversPath(w), {
      token: w.org.adminToken,
      body: { effectiveFrom: "2026-05-01", firstMeal: false, secondMeal: true },
    });
    await day(w, "06:00", "19:00");
    // 300 for the work, + 20: a second meal over 12 h cannot be waived.
    expect((await payOf(w, "2026-06-01")).grossPay).toBe(320);
  });

  it("old clients: mealBreak stays readable and writable; mealBreak beside a contradicting mealBreaks is a 400", async () => {
    const w = await createWorkplace({ timezone: "UTC" });
    const rules = await createRuleSet(w.org, { name: "California", preset: "CALIFORNIA", effectiveFrom: "2020-01-01" });
    const url = `/api/organizations/${w.org.id}/pay-rules/${rules.id}`;
    const patched = await api("PATCH", url, {
      token: w.org.adminToken,
      body: { mealBreak: { afterMinutes: 240, minimumMinutes: 20, penaltyHours: 2 } },
    });
    expect(patched.status).toBe(200);
    expect(patched.body.mealBreak).toEqual({ afterMinutes: 240, minimumMinutes: 20, penaltyHours: 2 });
    expect(patched.body.mealBreaks).toEqual([
      { afterMinutes: 240, minimumMinutes: 20, waivableUpToMinutes: 360 },
      { afterMinutes: 600, minimumMinutes: 30, waivableUpToMinutes: 720 },
    ]);
    expect(patched.body.mealPenaltyHours).toBe(2);
    const both = await api("PATCH", url, {
      token: w.org.adminToken,
      body: { mealBreaks: [], mealBreak: { afterMinutes: 300, minimumMinutes: 30, penaltyHours: 1 } },
    });
    expect(both.status).toBe(400);
    expect(both.body.errors.map((e: { path: string }) => e.path)).toEqual(["mealBreak"]);
    const cleared = await api("PATCH", url, { token: w.org.adminToken, body: { mealBreak: null } });
    expect(cleared.body).toMatchObject({ mealBreak: null, mealBreaks: [] });
    const unordered = await api("PATCH", url, {
      token: w.org.adminToken,
      body: {
        mealBreaks: [
          { afterMinutes: 600, minimumMinutes: 30 },
          { afterMinutes: 300, minimumMinutes: 30 },
        ],
      },
    });
    expect(unordered.status).toBe(400);
    expect(unordered.body.errors.map((e: { path: string }) => e.path)).toEqual(["mealBreaks.1.afterMinutes"]);
  });
});
