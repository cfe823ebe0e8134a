import { describe, expect, it } from "vitest";
import { parseCsv } from "@/domain/csv";
import { api } from "../../helpers/api";
import { newYork, seedShifts } from "../../helpers/timesheets";
import { createWorkplace } from "../../helpers/workplace";

const MARCH = "startDate=2026-03-01&endDate=2026-03-31";

/** An organization in `currencyCode` with two 7 h 59 (479-minute) shifts at `wage` an hour, on two days. */
async function twoShifts(currencyCode: string | null, wage: number) {
  const w = await createWorkplace();
  if (currencyCode) {
    const patched = await api("PATCH", `/api/organizations/${w.org.id}`, { token: w.org.adminToken, body: { currencyCode } });
    expect(patched.status).toBe(200);
  }
  const shift = { employeeId: w.staff.id, locationId: w.location.id, roleId: w.roleId, minutes: 479, hourlyWage: wage };
  await seedShifts(w.org.id, [
    { ...shift, ...newYork("2026-03-02T09:00:00") },
    { ...shift, ...newYork("2026-03-03T09:00:00") },
  ]);
  return w;
}

/** Every amount the timesheet reads answer: report lines and totals, listing totals (prepared and built), exports. */
async function amounts(w: Awaited<ReturnType<typeof twoShifts>>) {
  const token = w.org.adminToken;
  const get = async (path: string) => {
    const res = await api("GET", path, { token });
    expect(res.status, res.text).toBe(200);
    return res;
  };
  const report = (await get(`/api/timesheets/reports?${MARCH}`)).body as { days: { amount: number }[]; totals: { amount: number } };
  const employees = (await get(`/api/timesheets/reports/employees?${MARCH}`)).body as { amount: number }[];
  const listing = (await get(`/api/timesheets?${MARCH}`)).body as { totals: { amount: number } };
  const ofEmployee = (await get(`/api/timesheets?${MARCH}&employeeId=${w.staff.id}`)).body as { totals: { amount: number } };
  const csv = parseCsv((await get(`/api/timesheets/export?${MARCH}`)).text);
  const column = csv[0]!.indexOf("amount");
  const json = (await get(`/api/timesheets/export?${MARCH}&format=json`)).body as { amount: number }[];
  return {
    days: report.days.map((d) => d.amount),
    reportTotal: report.totals.amount,
    employees: employees.map((e) => e.amount),
    listingTotal: listing.totals.amount,
    employeeTotal: ofEmployee.totals.amount,
    csv: csv.slice(1).map((r) => r[column]),
    json: json.map((r) => r.amount),
  };
}

describe("timesheet amounts in the organization's currency", () => {
  it("BHD (3 decimals): 479 min × 1.234 / 60 = 9.851433… → 9.851 per shift, totals their sum 19.702", async () => {
    const w = await twoShifts("BHD", 1.234);
    expect(await amounts(w)).toEqual({
      days: [9.851, 9.851],
      reportTotal: 19.702,
      employees: [19.702],
      listingTotal: 19.702,
      employeeTotal: 19.702,
      csv: ["9.851", "9.851"],
      json: [9.851, 9.851],
    });
  });

  it("JPY (0 decimals): 479 min × ¥1,000 / 60 = ¥7,983.33… → ¥7,983 per shift, totals ¥15,966", async () => {
    const w = await twoShifts("JPY", 1000);
    expect(await amounts(w)).toEqual({
      days: [7983, 7983],
      reportTotal: 15966,
      employees: [15966],
      listingTotal: 15966,
      employeeTotal: 15966,
      csv: ["7983", "7983"],
      json: [7983, 7983],
    });
  });

  it("USD and no currency (2 decimals): 479 min × $1.234 / 60 = $9.8514… → $9.85, totals $19.70", async () => {
    for (const currency of ["USD", null]) {
      const w = await twoShifts(currency, 1.234);
      expect(await amounts(w), String(currency)).toEqual({
        days: [9.85, 9.85],
        reportTotal: 19.7,
        employees: [19.7],
        listingTotal: 19.7,
        employeeTotal: 19.7,
        csv: ["9.85", "9.85"],
        json: [9.85, 9.85],
      });
    }
  });
});
