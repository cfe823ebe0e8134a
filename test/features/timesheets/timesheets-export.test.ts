import { describe, expect, it } from "vitest";
import { parseCsv } from "@/domain/csv";
import { api } from "../../helpers/api";
import { createLocation } from "../../helpers/locations";
import { expectInvalid } from "../../helpers/problems";
import { createStaffMember } from "../../helpers/staff";
import { allPages, createManual, createRole, lockDay, newYork, seedShifts, timesheets } from "../../helpers/timesheets";
import { createWorkplace } from "../../helpers/workplace";

const MARCH = "startDate=2026-03-01&endDate=2026-03-31";

/** A month of shifts for three staff members at two locations, with breaks, flags and wages. */
async function month() {
  const w = await createWorkplace({ externalId: "store-1" });
  const second = await createLocation(w.org, { name: 'Harbour, "East"', timezone: "America/New_York", externalId: "store-2" });
  const role = await createRole(w, 18.5, "Barista");
  const ada = await createStaffMember(w.org, {
    name: '=HYPERLINK("http://x")',
    externalId: "emp-ada",
    locationIds: [w.location.id, second.id],
  });
  const bo = await createStaffMember(w.org, { name: 'Bo, "the" Baker', externalId: "emp-bo", locationIds: [w.location.id] });
  const seeds = [];
  for (let day = 1; day <= 20; day++) {
    const date = `2026-03-${String(day).padStart(2, "0")}`;
    const base = { roleId: role.id, hourlyWage: 18.5, minutes: 400 + day, unpaidBreakMinutes: day % 3 === 0 ? 30 : undefined };
    seeds.push({ ...base, employeeId: w.staff.id, locationId: w.location.id, ...newYork(`${date}T08:00:00`) });
    seeds.push({
      ...base,
      employeeId: ada.id,
      locationId: day % 2 ? second.id : w.location.id,
      ...newYork(`${date}T14:00:00`),
      flags: day === 5 ? ["IP_FAR" as const] : [],
    });
    if (day % 4 === 0)
      seeds.push({ ...base, employeeId: bo.id, locationId: w.location.id, ...newYork(`${date}T22:00:00`), hourlyWage: 21.25 });
  }
  await seedShifts(w.org.id, seeds);
  await lockDay(w, "2026-03-10");
  return { w, second, role, ada, bo, count: seeds.length };
}

const listingOf = async (token: string, query = MARCH) =>
  (await allPages(`/api/timesheets?${query}&limit=500`, token)).flatMap((p) => p.shifts) as unknown as Record<string, unknown>[];

describe("GET /api/timesheets/export", () => {
  it("streams RFC 4180 CSV as an attachment that parses back to the JSON listing", async () => {
    const { w, second, ada, count } = await month();
    const res = await api("GET", `/api/timesheets/export?${MARCH}`, { token: w.org.adminToken });
    expect(res.status).toBe(200);
    expect(res.headers.get("Content-Type")).toMatch(/^text\/csv/);
    expect(res.headers.get("Content-Disposition")).toBe('attachment; filename="timesheets-2026-03-01-2026-03-31.csv"');
    expect(res.text.endsWith("\r\n")).toBe(true);
    const [header, ...records] = parseCsv(res.text);
    expect(records).toHaveLength(count);
    const rows = records.map((r) => Object.fromEntries(header!.map((h, i) => [h, r[i]!])));
    const listing = await listingOf(w.org.adminToken);
    expect(rows.map((r) => r.shiftId)).toEqual(listing.map((s) => s.id));
    for (const [i, shift] of listing.entries()) {
      const row = rows[i]!;
      expect(row).toMatchObject({
        businessDate: shift.businessDate,
        employeeId: shift.employeeId,
        locationId: shift.locationId,
        roleId: shift.roleId,
        roleName: "Barista",
        utcOffset: String(shift.utcOffset),
        localStartTime: `${shift.startTime}`.replace(/Z$/, ""),
        localEndTime: `${shift.endTime}`.replace(/Z$/, ""),
        utcStartTime: shift.utcStartTime,
        utcEndTime: shift.utcEndTime,
        duration: String(shift.duration),
        totalPaidBreaks: String(shift.totalPaidBreaks),
        totalUnpaidBreaks: String(shift.totalUnpaidBreaks),
        payableDuration: String(shift.payableDuration),
        hourlyWage: String(shift.hourlyWage),
        flags: (shift.flags as string[]).join(";"),
        manualEntry: "false",
        locked: String(shift.locked),
      });
      expect(Number(row.payableHours)).toBeCloseTo((shift.payableDuration as number) / 60, 2);
      expect(row.amount).toBe((Math.round(((shift.payableDuration as number) * (shift.hourlyWage as number) * 100) / 60) / 100).toFixed(2));
    }
    const adaRow = rows.find((r) => r.employeeId === ada.id && r.locationId === second.id)!;
    expect(adaRow).toMatchObject({
      employeeName: '\'=HYPERLINK("http://x")',
      employeeExternalId: "emp-ada",
      locationName: 'Harbour, "East"',
      locationExternalId: "store-2",
    });
    const total = rows.reduce((sum, r) => sum + Math.round(Number(r.amount) * 100), 0);
    const totals = (await timesheets(w, { startDate: "2026-03-01", endDate: "2026-03-31" })).body.totals;
    expect(total / 100).toBeCloseTo(totals.amount, 6);
  });

  it("exports JSON with format=json, the same records as the CSV", async () => {
    const { w, count } = await month();
    const res = await api("GET", `/api/timesheets/export?${MARCH}&format=json`, { token: w.org.adminToken });
    expect(res.status).toBe(200);
    expect(res.headers.get("Content-Type")).toMatch(/^application\/json/);
    expect(res.headers.get("Content-Disposition")).toContain(".json");
    expect(res.body).toHaveLength(count);
    expect(res.body[0]).toMatchObject({ manualEntry: false, flags: [], payableHours: expect.any(Number), amount: expect.any(Number) });
    const csv = parseCsv((await api("GET", `/api/timesheets/export?${MARCH}`, { token: w.org.adminToken })).text);
    expect(res.body.map((r: { shiftId: string }) => r.shiftId)).toEqual(csv.slice(1).map((r) => r[0]));
  });

  it("reads a range longer than one export page, page by page, and applies the filters", async () => {
    const w = await createWorkplace();
    const staff = await Promise.all(Array.from({ length: 3 }, () => createStaffMember(w.org, { locationIds: [w.location.id] })));
    const seeds = Array.from({ length: 1_100 }, (_, i) => ({
      employeeId: staff[i % 3]!.id,
      locationId: w.location.id,
      roleId: w.roleId,
      ...newYork(`2026-01-01T06:00:00`),
      minutes: 30,
    })).map((s, i) => ({ ...s, start: new Date(s.start.getTime() + i * 3_600_000) }));
    await seedShifts(w.org.id, seeds);
    const res = await api("GET", "/api/timesheets/export?startDate=2026-01-01&endDate=2026-03-31", { token: w.org.adminToken });
    const records = parseCsv(res.text).slice(1);
    expect(records).toHaveLength(1_100);
    expect(new Set(records.map((r) => r[0])).size).toBe(1_100);
    const one = await api("GET", `/api/timesheets/export?startDate=2026-01-01&endDate=2026-03-31&employeeId=${staff[0]!.id}&format=json`, {
      token: w.org.adminToken,
    });
    expect(one.body).toHaveLength(367);
  });

  it("refuses a bad range or format with 400", async () => {
    const w = await createWorkplace();
    expectInvalid(await api("GET", "/api/timesheets/export?startDate=2026-03-31&endDate=2026-03-01", { token: w.org.adminToken }), [
      "endDate",
    ]);
    expect((await api("GET", `/api/timesheets/export?${MARCH}&format=xml`, { token: w.org.adminToken })).body.errors[0].path).toBe(
      "format",
    );
  });
});

describe("GET /api/timesheets/reports", () => {
  it("gives one row per day, staff member and location that sums to the listing's totals", async () => {
    const { w, second, ada } = await month();
    const res = await api("GET", `/api/timesheets/reports?${MARCH}`, { token: w.org.adminToken });
    expect(res.status).toBe(200);
    const { days, totals } = res.body;
    const listing = (await timesheets(w, { startDate: "2026-03-01", endDate: "2026-03-31" })).body.totals;
    expect(totals).toEqual({
      duration: listing.duration,
      totalUnpaidBreaks: listing.totalUnpaidBreaks,
      hoursWorked: String(Math.round((listing.payableDuration * 100) / 60) / 100),
      amount: listing.amount,
    });
    const add = (field: "duration" | "totalUnpaidBreaks" | "amount") =>
      days.reduce((s: number, d: Record<string, number>) => s + d[field]!, 0);
    expect(add("duration")).toBe(listing.duration);
    expect(add("totalUnpaidBreaks")).toBe(listing.totalUnpaidBreaks);
    expect(add("amount")).toBeCloseTo(listing.amount, 6);
    const keys = days.map((d: Record<string, string>) => `${d.day}|${d.employeeId}|${d.locationId}`);
    expect(new Set(keys).size).toBe(keys.length);
    expect(keys).toEqual([...keys].sort());
    const adaFirst = days.find((d: Record<string, unknown>) => d.day === "2026-03-01" && d.employeeId === ada.id);
    expect(adaFirst).toEqual({
      day: "2026-03-01",
      employeeId: ada.id,
      externalId: "emp-ada",
      locationId: second.id,
      organizationId: w.org.id,
      duration: 401,
      totalUnpaidBreaks: 0,
      hoursWorked: "6.68",
      amount: 123.64,
      locked: false,
    });
    expect(
      days.filter((d: { locked: boolean }) => d.locked).map((d: { day: string; locationId: string }) => [d.day, d.locationId]),
    ).toEqual([
      ["2026-03-10", w.location.id],
      ["2026-03-10", w.location.id],
    ]);
  });

  it("pages the days with page/limit, keeping the totals", async () => {
    const { w } = await month();
    const all = (await api("GET", `/api/timesheets/reports?${MARCH}&limit=500`, { token: w.org.adminToken })).body;
    const first = await api("GET", `/api/timesheets/reports?${MARCH}&limit=7`, { token: w.org.adminToken });
    expect(first.body.days).toEqual(all.days.slice(0, 7));
    expect(first.headers.get("Link")).toContain("page=2");
    const third = await api("GET", `/api/timesheets/reports?${MARCH}&limit=7&page=3`, { token: w.org.adminToken });
    expect(third.body.days).toEqual(all.days.slice(14, 21));
    expect(third.body.totals).toEqual(all.totals);
  });

  it("filters by employees[] and locations[] in either spelling", async () => {
    const { w, second, ada, bo } = await month();
    const get = async (query: string) =>
      (await api("GET", `/api/timesheets/reports?${MARCH}&limit=500&${query}`, { token: w.org.adminToken })).body.days;
    const who = (days: { employeeId: string }[]) => [...new Set(days.map((d) => d.employeeId))].sort();
    expect(who(await get(`employees[]=${ada.id}&employees[]=${bo.id}`))).toEqual([ada.id, bo.id].sort());
    expect(who(await get(`employees=${bo.id}`))).toEqual([bo.id]);
    expect(who(await get(`employees=${bo.id},${ada.id}`))).toEqual([ada.id, bo.id].sort());
    const there = await get(`locations[]=${second.id}`);
    expect(there.length).toBe(10);
    expect(there.every((d: { locationId: string }) => d.locationId === second.id)).toBe(true);
  });

  it("counts shifts on their start's date at a requested utcOffset", async () => {
    const w = await createWorkplace();
    // 22:00 New York on March 3rd (EST) is 03:00Z on the 4th.
    await createManual(w, { startTime: "2026-03-03T22:00:00Z", endTime: "2026-03-04T02:00:00Z" });
    const local = (await api("GET", `/api/timesheets/reports?${MARCH}`, { token: w.org.adminToken })).body.days;
    expect(local.map((d: { day: string }) => d.day)).toEqual(["2026-03-03"]);
    const utc = (await api("GET", `/api/timesheets/reports?${MARCH}&utcOffset=0`, { token: w.org.adminToken })).body;
    expect(utc.days.map((d: { day: string }) => d.day)).toEqual(["2026-03-04"]);
    const edge = (
      await api("GET", `/api/timesheets/reports?startDate=2026-03-01&endDate=2026-03-03&utcOffset=0`, { token: w.org.adminToken })
    ).body;
    expect(edge.days).toEqual([]);
    expect(edge.totals.duration).toBe(0);
  });

  it("refuses a bad range or utcOffset with 400", async () => {
    const w = await createWorkplace();
    expectInvalid(await api("GET", "/api/timesheets/reports?startDate=2026-03-31&endDate=2026-03-01", { token: w.org.adminToken }), [
      "endDate",
    ]);
    expect((await api("GET", `/api/timesheets/reports?${MARCH}&utcOffset=5000`, { token: w.org.adminToken })).body.errors[0].path).toBe(
      "utcOffset",
    );
  });
});

describe("GET /api/timesheets/reports/employees", () => {
  it("totals each staff member over the range, summing to the listing, paged by cursor", async () => {
    const { w, ada, bo } = await month();
    const res = await api("GET", `/api/timesheets/reports/employees?${MARCH}`, { token: w.org.adminToken });
    expect(res.status).toBe(200);
    expect(res.body.map((e: { employeeId: string }) => e.employeeId)).toEqual([w.staff.id, ada.id, bo.id].sort());
    const listing = (await timesheets(w, { startDate: "2026-03-01", endDate: "2026-03-31" })).body.totals;
    const add = (field: string) => res.body.reduce((s: number, e: Record<string, number>) => s + e[field]!, 0);
    expect(add("shifts")).toBe(listing.count);
    expect(add("duration")).toBe(listing.duration);
    expect(add("payableDuration")).toBe(listing.payableDuration);
    expect(add("totalUnpaidBreaks")).toBe(listing.totalUnpaidBreaks);
    expect(add("amount")).toBeCloseTo(listing.amount, 6);
    const adaRow = res.body.find((e: { employeeId: string }) => e.employeeId === ada.id);
    expect(adaRow).toMatchObject({ externalId: "emp-ada", shifts: 20, flaggedShifts: 1 });
    expect(adaRow.hoursWorked).toBe(String(Math.round((adaRow.payableDuration * 100) / 60) / 100));
    const pages = [];
    let next: string | null = `/api/timesheets/reports/employees?${MARCH}&limit=2`;
    while (next) {
      const page = await api("GET", next, { token: w.org.adminToken });
      pages.push(page.body);
      next = /<([^>]+)>; rel="next"/.exec(page.headers.get("Link") ?? "")?.[1] ?? null;
    }
    expect(pages.map((p) => p.length)).toEqual([2, 1]);
    expect(pages.flat()).toEqual(res.body);
  });
});
