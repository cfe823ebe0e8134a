import { describe, expect, it } from "vitest";
import { addDays } from "@/domain/local-time";
import { api } from "../../helpers/api";
import { createRuleSet, payLines } from "../../helpers/pay";
import { createRole } from "../../helpers/timesheets";
import { createWorkplace } from "../../helpers/workplace";

/*
 * Issue "Pay beyond the US" item 5: a casual's week under the General Retail Industry Award [MA000004] — a minimum
 * engagement, an evening, a public holiday, a Saturday and a Sunday — costs in the schedule what pay, labor cost and
 * the schedule cost once worked say, line kind by line kind.
 */

/** A Monday at least three weeks ahead (schedule cost counts entries still to come); the holidays are set below. */
function futureMonday(): string {
  const day = new Date(Date.now() + 21 * 86_400_000);
  const back = (day.getUTCDay() + 6) % 7;
  return new Date(day.getTime() - back * 86_400_000).toISOString().slice(0, 10);
}

type Figures = { regularMinutes: number; overtimeMinutes: number; doubleTimeMinutes: number; penaltyHours: number; laborCost: number };

describe("an AU_GENERAL_RETAIL week worked as scheduled", () => {
  it("a casual's week at $25.00 costs $1,443.75 in the schedule, in pay and in labor cost alike", async () => {
    const w = await createWorkplace({ country: "AU", state: "VIC", timezone: "Australia/Melbourne" });
    const base = `/api/organizations/${w.org.id}/locations/${w.location.id}`;
    const role = await createRole(w, 25, "Retail employee");
    const patched = await api("PATCH", `/api/organizations/${w.org.id}/staffmembers/${w.staff.id}`, {
      token: w.org.adminToken,
      body: { roleIds: [role.id], employmentType: "casual", hourlyWage: 25 },
    });
    expect(patched.status, patched.text).toBe(200);
    await createRuleSet(w.org, { preset: "AU_GENERAL_RETAIL" });

    const [mon, tue, wed, thu, fri, sat, sun] = [0, 1, 2, 3, 4, 5, 6].map((d) => addDays(futureMonday(), d)) as [
      string,
      string,
      string,
      string,
      string,
      string,
      string,
    ];
    // Wednesday is a public holiday, whatever Victoria's calendar says of that week; no other day is.
    const holidays = await api("PUT", `${base}/holidays/overrides`, {
      token: w.org.adminToken,
      body: { added: [{ date: wed, name: "Agreed holiday" }], removed: [mon, tue, thu, fri, sat, sun] },
    });
    expect(holidays.status, holidays.text).toBe(200);

    const plan = [
      [mon, "10:00", "12:00"],
      [tue, "14:00", "20:00"],
      [wed, "09:00", "17:00"],
      [sat, "09:00", "17:00"],
      [sun, "09:00", "17:00"],
    ].map(([date, from, to]) => ({ startTime: `${date}T${from}:00Z`, endTime: `${date}T${to}:00Z` }));
    for (const times of plan) {
      const res = await api("POST", `${base}/schedules`, {
        token: w.org.adminToken,
        body: { employeeId: w.staff.id, roleId: role.id, breaks: [], ...times },
      });
      expect(res.status, res.text).toBe(201);
    }
    const range = { startDate: mon, endDate: sun };
    const scheduleCost = async () => {
      const res = await api("GET", `${base}/schedules/cost?${new URLSearchParams(range)}`, { token: w.org.adminToken });
      expect(res.status, res.text).toBe(200);
      return res.body as { totals: Figures; dates: (Figures & { date: string })[] };
    };

    // By hand, at $25.00 (casual rates of cl. 22.1 include the 25 % loading of cl. 11.2):
    //   Monday 10:00–12:00: 2 × 25 = 50.00 + loading 2 × 6.25 = 12.50 + the 3-hour engagement's unworked hour at
    //     125 % (cl. 11.3) 31.25 = 93.75;
    //   Tuesday 14:00–20:00: 6 × 25 = 150.00 + loading 4 × 6.25 = 25.00 + evening 2 × 12.50 (150 %) = 25.00 = 200.00;
    //   Wednesday, a public holiday: 8 × 25 = 200.00 + 8 × 37.50 (250 %) = 300.00 = 500.00;
    //   Saturday: 200.00 + 8 × 12.50 (150 %) = 100.00 = 300.00; Sunday: 200.00 + 8 × 18.75 (175 %) = 150.00 = 350.00.
    //   93.75 + 200 + 500 + 300 + 350 = 1,443.75; 32 h worked, all ordinary (under 9 a day and 38 a week).
    const byDate = { [mon]: 93.75, [tue]: 200, [wed]: 500, [thu]: 0, [fri]: 0, [sat]: 300, [sun]: 350 };
    const planned = await scheduleCost();
    expect(planned.dates.map((d) => [d.date, d.laborCost])).toEqual(Object.entries(byDate));
    // The award's lines are money, not penalty hours, as in pay's totals.
    expect(planned.totals).toMatchObject({
      regularMinutes: 1920,
      overtimeMinutes: 0,
      doubleTimeMinutes: 0,
      penaltyHours: 0,
      laborCost: 1443.75,
    });

    // Worked exactly as planned.
    for (const times of plan) {
      const res = await api("POST", "/api/timesheets", {
        token: w.org.adminToken,
        body: { employeeId: w.staff.id, locationId: w.location.id, roleId: role.id, ...times },
      });
      expect(res.status, res.text).toBe(201);
    }
    const pay = await payLines(w, range);
    expect(pay.status, pay.text).toBe(200);
    const employee = pay.body.employees[0] as {
      grossPay: number;
      penaltyHours: number;
      regularMinutes: number;
      lines: { date: string; kind: string; rule: string | null; minutes: number; amount: number }[];
    };
    expect(employee).toMatchObject({ grossPay: 1443.75, penaltyHours: 0, regularMinutes: 1920 });
    expect(employee.lines.map((l) => [l.date, l.kind, l.rule, l.minutes, l.amount])).toEqual([
      [mon, "REGULAR", null, 120, 50],
      [mon, "PENALTY", "AU_GENERAL_RETAIL.CASUAL_LOADING", 120, 12.5],
      [mon, "MINIMUM_ENGAGEMENT", "AU_GENERAL_RETAIL.MINIMUM_ENGAGEMENT", 60, 31.25],
      [tue, "REGULAR", null, 360, 150],
      [tue, "PENALTY", "AU_GENERAL_RETAIL.CASUAL_LOADING", 240, 25],
      [tue, "PENALTY", "AU_GENERAL_RETAIL.EVENING", 120, 25],
      [wed, "REGULAR", null, 480, 200],
      [wed, "HOLIDAY", "AU_GENERAL_RETAIL.PUBLIC_HOLIDAY", 480, 300],
      [sat, "REGULAR", null, 480, 200],
      [sat, "PENALTY", "AU_GENERAL_RETAIL.SATURDAY", 480, 100],
      [sun, "REGULAR", null, 480, 200],
      [sun, "PENALTY", "AU_GENERAL_RETAIL.SUNDAY", 480, 150],
    ]);

    const laborCost = await api("GET", `/api/timesheets/labor-cost?${new URLSearchParams(range)}`, { token: w.org.adminToken });
    expect(laborCost.status, laborCost.text).toBe(200);
    expect(laborCost.body.totals).toMatchObject({ regularMinutes: 1920, penaltyHours: 0, laborCost: 1443.75 });

    const worked = await scheduleCost();
    expect(worked.totals).toEqual(planned.totals);
    expect(worked.dates).toEqual(planned.dates);
  });
});
