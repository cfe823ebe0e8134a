import { describe, expect, it } from "vitest";
import { api } from "../../helpers/api";
import { closePeriod, createRuleSet, PERIOD, payLines, periodsPath, WEEK } from "../../helpers/pay";
import { createManual } from "../../helpers/timesheets";
import { createWorkplace, type Workplace } from "../../helpers/workplace";

/* Issue "Pay beyond the US" item 3: a wage below the award's minimum is a warning, never silently raised. */

const [MON, , , , , , SUN] = WEEK;

/** A full-time staff member under the General Retail Industry Award who worked 8 hours on Monday at `wage`. */
async function retailMonday(wage: number): Promise<Workplace> {
  const w = await createWorkplace();
  await createRuleSet(w.org, { preset: "AU_GENERAL_RETAIL" });
  const patched = await api("PATCH", `/api/organizations/${w.org.id}/staffmembers/${w.staff.id}`, {
    token: w.org.adminToken,
    body: { employmentType: "full_time" },
  });
  expect(patched.status).toBe(200);
  await createManual(w, { startTime: `${MON}T09:00:00Z`, endTime: `${MON}T17:00:00Z`, hourlyWage: wage });
  return w;
}

describe("WAGE_BELOW_AWARD_MINIMUM under AU_GENERAL_RETAIL", () => {
  it("$25.00 an hour is below Retail Employee Level 1's $26.55 (cl. 17.1): a warning, and pay stays 8 × 25 = $200.00", async () => {
    const w = await retailMonday(25);
    const res = await payLines(w, { startDate: MON, endDate: SUN });
    expect(res.status).toBe(200);
    const [employee] = res.body.employees;
    expect(employee.grossPay).toBe(200);
    expect(employee.warnings).toEqual([
      {
        code: "WAGE_BELOW_AWARD_MINIMUM",
        date: MON,
        shiftId: expect.any(String),
        wage: 25,
        minimum: 26.55,
        source: expect.stringContaining("MA000004"),
      },
    ]);

    // The closed payroll keeps the warning with the employee's figures.
    expect((await closePeriod(w, PERIOD, { approveAll: true })).status).toBe(200);
    const payroll = await api("GET", `${periodsPath(w.org)}/${PERIOD}/payroll`, { token: w.org.adminToken });
    expect(payroll.status).toBe(200);
    expect(payroll.body.employees[0].warnings.map((x: { minimum: number }) => x.minimum)).toEqual([26.55]);
  });

  it("$27.00 an hour is above it: no warnings field, pay 8 × 27 = $216.00", async () => {
    const w = await retailMonday(27);
    const [employee] = (await payLines(w, { startDate: MON, endDate: SUN })).body.employees;
    expect(employee.grossPay).toBe(216);
    expect(employee).not.toHaveProperty("warnings");
  });
});
