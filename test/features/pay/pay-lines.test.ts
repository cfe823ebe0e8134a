import { describe, expect, it } from "vitest";
import { api } from "../../helpers/api";
import { createRuleSet, payLines, WEEK, workDay } from "../../helpers/pay";
import { createStaffMember, staffToken } from "../../helpers/staff";
import { accessToken } from "../../helpers/tokens";
import { createWorkplace } from "../../helpers/workplace";

type Line = {
  date: string;
  kind: string;
  minutes: number;
  rule: string | null;
  amount: number | null;
  shiftId: string | null;
  ruleSetId: string | null;
};

/** A California worker: Monday–Friday 10 h, Saturday 4 h, no meal breaks. */
async function californiaWeek() {
  const w = await createWorkplace();
  const rules = await createRuleSet(w.org, { name: "California", preset: "CALIFORNIA" });
  const shifts = [];
  for (const date of WEEK.slice(0, 5)) shifts.push(await workDay(w, date, 10));
  shifts.push(await workDay(w, WEEK[5], 4));
  return { w, rules, shifts };
}

describe("GET /api/timesheets/pay", () => {
  it("classifies a California week: 40 h regular, 14 h overtime (Saturday's 4 h weekly), 5 meal penalties", async () => {
    const { w, rules, shifts } = await californiaWeek();
    const res = await payLines(w, { startDate: WEEK[0], endDate: WEEK[6] });
    expect(res.status).toBe(200);
    expect(res.body.totals).toEqual({
      regularMinutes: 2400,
      overtimeMinutes: 840,
      doubleTimeMinutes: 0,
      penaltyHours: 5,
      timeOffHours: 0,
      grossPay: 800 + 420 + 100,
    });
    const [employee] = res.body.employees;
    expect(employee).toMatchObject({ employeeId: w.staff.id, currencyCode: "USD", grossPay: 1320 });
    const lines = employee.lines as Line[];
    const saturday = lines.filter((l) => l.date === WEEK[5]);
    expect(saturday).toEqual([
      expect.objectContaining({
        shiftId: shifts[5].id,
        kind: "OVERTIME",
        minutes: 240,
        rule: "WEEKLY_OVERTIME",
        ruleSetId: rules.id,
        amount: 120,
      }),
    ]);
    const monday = lines.filter((l) => l.date === WEEK[0]);
    expect(monday.map((l) => [l.kind, l.minutes, l.rule])).toEqual([
      ["REGULAR", 480, null],
      ["OVERTIME", 120, "DAILY_OVERTIME"],
      ["MEAL_PENALTY", 60, "MEAL_BREAK"],
    ]);
    expect(monday.find((l) => l.kind === "MEAL_PENALTY")).toMatchObject({ shiftId: null, amount: 20 });
  });

  it("computes a workweek the range cuts whole: Saturday alone is still weekly overtime", async () => {
    const { w } = await californiaWeek();
    const res = await payLines(w, { startDate: WEEK[5], endDate: WEEK[5] });
    expect(res.body.totals).toMatchObject({ regularMinutes: 0, overtimeMinutes: 240, penaltyHours: 0 });
    expect((res.body.employees[0].lines as Line[]).every((l) => l.date === WEEK[5])).toBe(true);
  });

  it("without a rule set, NONE: every minute regular", async () => {
    const w = await createWorkplace();
    await workDay(w, WEEK[0], 12);
    const res = await payLines(w, { startDate: WEEK[0], endDate: WEEK[0] });
    expect(res.body.totals).toMatchObject({ regularMinutes: 720, overtimeMinutes: 0, grossPay: 240 });
    expect(res.body.employees[0].lines[0]).toMatchObject({ kind: "REGULAR", rule: null, ruleSetId: null });
  });

  it("a staff member without SHIFT_READ sees only their own pay; asking for another's is 403", async () => {
    const { w } = await californiaWeek();
    const colleague = await createStaffMember(w.org, { locationIds: [w.location.id] });
    await workDay({ ...w, staff: colleague }, WEEK[0], 8);
    const own = await payLines(w, { startDate: WEEK[0], endDate: WEEK[6] }, w.token);
    expect(own.status).toBe(200);
    expect(own.body.employees.map((e: { employeeId: string }) => e.employeeId)).toEqual([w.staff.id]);
    const other = await payLines(w, { startDate: WEEK[0], endDate: WEEK[6], employeeId: colleague.id }, w.token);
    expect(other.status).toBe(403);
    const all = await payLines(w, { startDate: WEEK[0], endDate: WEEK[6] });
    expect(all.body.employees).toHaveLength(2);
    const filtered = await payLines(w, { startDate: WEEK[0], endDate: WEEK[6], employeeId: colleague.id });
    expect(filtered.body.employees.map((e: { employeeId: string }) => e.employeeId)).toEqual([colleague.id]);
    const manager = await createStaffMember(w.org, { accessRoleName: "Manager" });
    const managerView = await payLines(w, { startDate: WEEK[0], endDate: WEEK[6] }, await staffToken(w.org, manager.id));
    expect(managerView.body.employees).toHaveLength(2);
  });

  it("refuses a bad date, a reversed range and one over 93 days with 400; a partner token names its organization", async () => {
    const { w } = await californiaWeek();
    for (const query of [
      { startDate: "2026-02-30", endDate: "2026-03-01" },
      { startDate: WEEK[6], endDate: WEEK[0] },
      { startDate: "2026-01-01", endDate: "2026-04-30" },
      { startDate: WEEK[0] },
    ]) {
      const res = await payLines(w, query as Record<string, string>);
      expect(res.status, JSON.stringify(query)).toBe(400);
      expect(res.headers.get("Content-Type")).toContain("application/problem+json");
    }
    const partner = await accessToken({});
    expect((await payLines(w, { startDate: WEEK[0], endDate: WEEK[6] }, partner)).status).toBe(400);
    const named = await payLines(w, { startDate: WEEK[0], endDate: WEEK[6], organizationId: w.org.id }, partner);
    expect(named.status).toBe(200);
    expect(named.body.totals.overtimeMinutes).toBe(840);
    const unknown = await payLines(w, { startDate: WEEK[0], endDate: WEEK[6], organizationId: "nope" }, partner);
    expect(unknown.status).toBe(404);
  });

  it("answers another organization's staff nothing of this one: its token reads its own organization", async () => {
    const { w } = await californiaWeek();
    const other = await createWorkplace();
    const res = await payLines(other, { startDate: WEEK[0], endDate: WEEK[6], organizationId: w.org.id });
    expect(res.status).toBe(404);
    const own = await payLines(other, { startDate: WEEK[0], endDate: WEEK[6] });
    expect(own.body.employees).toEqual([]);
    expect((await api("GET", `/api/timesheets/pay?startDate=${WEEK[0]}&endDate=${WEEK[6]}`)).status).toBe(401);
  });
});
