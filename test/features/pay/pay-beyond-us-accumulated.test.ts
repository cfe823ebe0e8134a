import { describe, expect, it } from "vitest";
import { api } from "../../helpers/api";
import { createRuleSet, payLines } from "../../helpers/pay";
import { createManual } from "../../helpers/timesheets";
import { createWorkplace, type Workplace } from "../../helpers/workplace";

/*
 * Issue "Pay beyond the US": the rules that count past one workday, through GET /api/timesheets/pay — Japan's 60
 * overtime hours in a month and Colorado's 12 consecutive hours — each figure written out by hand.
 */

type Line = { date: string; kind: string; minutes: number; amount: number | null; rule: string | null };

/** A closed manual shift from local `start` (YYYY-MM-DDTHH:MM) lasting `minutes`, at `wage` an hour. */
const shift = (w: Workplace, start: string, minutes: number, wage: number) => {
  const startTime = `${start}:00Z`;
  const endTime = new Date(Date.parse(startTime) + minutes * 60_000).toISOString().replace(".000Z", "Z");
  return createManual(w, { startTime, endTime, hourlyWage: wage });
};

const linesOf = async (w: Workplace, startDate: string, endDate: string) => {
  const res = await payLines(w, { startDate, endDate });
  expect(res.status).toBe(200);
  const employee = res.body.employees[0] as { grossPay: number; lines: Line[] };
  return { gross: employee.grossPay, lines: employee.lines.map((l) => [l.date, l.kind, l.rule, l.minutes, l.amount]) };
};

const PAST_60 = "JP_STATUTORY.OVERTIME_PAST_60_HOURS_A_MONTH";

describe("JP_STATUTORY: overtime past 60 hours in a month is + 50 % (Labour Standards Act art. 37(1) proviso)", () => {
  it("the last day of June past 60 hours earns it, 1 July starts the count again — asked for that week alone", async () => {
    const w = await createWorkplace();
    const patched = await api("PATCH", `/api/organizations/${w.org.id}`, { token: w.org.adminToken, body: { currencyCode: "JPY" } });
    expect(patched.status).toBe(200);
    await createRuleSet(w.org, { preset: "JP_STATUTORY", effectiveFrom: "2026-01-01" });
    // June 2026's first fifteen weekdays (1–5, 8–12, 15–19), 08:00–20:00 at ¥1,000: 4 overtime hours each, 60 in all.
    for (const day of ["01", "02", "03", "04", "05", "08", "09", "10", "11", "12", "15", "16", "17", "18", "19"]) {
      await shift(w, `2026-06-${day}T08:00`, 720, 1000);
    }
    await shift(w, "2026-06-30T08:00", 540, 1000);
    await shift(w, "2026-07-01T08:00", 540, 1000);

    // The week of 29 June alone: its read reaches back to 1 June, so 30 June's overtime hour is the 61st.
    const week = await linesOf(w, "2026-06-29", "2026-07-05");
    expect(week.lines).toEqual([
      // 30 June: 8 × ¥1,000 = ¥8,000; 1 h × ¥1,250 = ¥1,250; past 60 hours + 25 % more: ¥250 (¥1,500 = 150 %).
      ["2026-06-30", "REGULAR", null, 480, 8000],
      ["2026-06-30", "OVERTIME", "DAILY_OVERTIME", 60, 1250],
      ["2026-06-30", "PENALTY", PAST_60, 60, 250],
      // 1 July: July's first overtime hour, + 25 % only.
      ["2026-07-01", "REGULAR", null, 480, 8000],
      ["2026-07-01", "OVERTIME", "DAILY_OVERTIME", 60, 1250],
    ]);
    // 8,000 + 1,250 + 250 + 8,000 + 1,250 = ¥18,750.
    expect(week.gross).toBe(18750);
    // June whole: 15 × (8,000 + 4 × 1,250) = ¥195,000, + 30 June's ¥9,500 = ¥204,500.
    expect((await linesOf(w, "2026-06-01", "2026-06-30")).gross).toBe(204500);
  });
});

describe("US_CO: overtime past 12 consecutive hours regardless of the workday (COMPS Order #39 Rule 4.1.1(C))", () => {
  it("a 20:00–09:00 shift is 13 consecutive hours: 1 h overtime, though neither workday passes 12", async () => {
    const w = await createWorkplace();
    await createRuleSet(w.org, { preset: "US_CO" });
    await shift(w, "2026-06-01T20:00", 780, 20);
    const week = await linesOf(w, "2026-06-01", "2026-06-07");
    // Monday 4 h × $20 = $80.00; Tuesday 8 h × $20 = $160.00 and the 13th hour × $30 = $30.00 → $270.00.
    expect(week.lines).toEqual([
      ["2026-06-01", "REGULAR", null, 240, 80],
      ["2026-06-02", "REGULAR", null, 480, 160],
      ["2026-06-02", "OVERTIME", "CONSECUTIVE_OVERTIME", 60, 30],
    ]);
    expect(week.gross).toBe(270);
  });

  it("exactly 12 consecutive hours earn none; 12 h 01 one minute", async () => {
    const w = await createWorkplace();
    await createRuleSet(w.org, { preset: "US_CO" });
    await shift(w, "2026-06-01T20:00", 720, 20);
    await shift(w, "2026-06-03T20:00", 721, 20);
    // 20:00–08:00: 12 × 20 = $240.00. 20:00–08:01: $240.00 + 1 minute at $30 an hour = $0.50 → $240.50.
    expect((await linesOf(w, "2026-06-01", "2026-06-02")).gross).toBe(240);
    const longer = await linesOf(w, "2026-06-03", "2026-06-04");
    expect(longer.gross).toBe(240.5);
    expect(longer.lines).toContainEqual(["2026-06-04", "OVERTIME", "CONSECUTIVE_OVERTIME", 1, 0.5]);
  });
});
