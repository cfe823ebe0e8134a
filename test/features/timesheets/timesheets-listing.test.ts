import { describe, expect, it } from "vitest";
import { api } from "../../helpers/api";
import { createLocation } from "../../helpers/locations";
import { expectInvalid } from "../../helpers/problems";
import { createStaffMember } from "../../helpers/staff";
import { allPages, createManual, createRole, ids, lockDay, newYork, seedShifts, timesheets } from "../../helpers/timesheets";
import { createWorkplace, type Workplace } from "../../helpers/workplace";

const SHIFT_FIELDS = [
  "active",
  "breaks",
  "businessDate",
  "clockInDeviceId",
  "clockInSource",
  "clockOutDeviceId",
  "clockOutSource",
  "costCodeId",
  "createdAt",
  "customFields",
  "deletedAt",
  "duration",
  "employeeId",
  "endTime",
  "flags",
  "hourlyWage",
  "id",
  "locationId",
  "locked",
  "manualEntry",
  "payableDuration",
  "roleId",
  "startTime",
  "totalPaidBreaks",
  "totalUnpaidBreaks",
  "updatedAt",
  "utcEndTime",
  "utcOffset",
  "utcStartTime",
  "wageRateId",
];

/** Two staff, two locations, two roles and a spread of shifts in March 2026, seeded straight into D1. */
async function seededWorkplace() {
  const w = await createWorkplace();
  const second = await createLocation(w.org, { name: "Second", timezone: "America/New_York" });
  const colleague = await createStaffMember(w.org, { locationIds: [w.location.id, second.id] });
  const barista = await createRole(w, 20);
  const at = (local: string) => newYork(local);
  const base = { employeeId: w.staff.id, locationId: w.location.id, roleId: barista.id, minutes: 480, hourlyWage: 20 };
  const shifts = await seedShifts(w.org.id, [
    { ...base, ...at("2026-03-02T09:00:00"), unpaidBreakMinutes: 30 },
    { ...base, ...at("2026-03-03T09:00:00"), flags: ["MOCK_LOCATION"] },
    { ...base, ...at("2026-03-04T09:00:00"), locationId: second.id, hourlyWage: 25 },
    { ...base, ...at("2026-03-05T09:00:00"), roleId: w.roleId, minutes: 240 },
    { ...base, ...at("2026-03-05T09:00:00"), employeeId: colleague.id, unpaidBreakMinutes: 45 },
    { ...base, ...at("2026-03-06T09:00:00"), employeeId: colleague.id, open: true },
    { ...base, ...at("2026-04-01T09:00:00") },
  ]);
  return { w, second, colleague, barista, shifts };
}

const sum = (shifts: { duration: number }[], field: "duration" | "payableDuration" | "totalUnpaidBreaks" | "totalPaidBreaks") =>
  shifts.reduce((total, s) => total + (s as Record<string, number>)[field]!, 0);

describe("GET /api/timesheets", () => {
  it("answers {shifts, lockedDays, totals} with Shift records, as the brief states", async () => {
    const w = await createWorkplace();
    const role = await createRole(w, 18);
    const lunch = { startTime: "2026-03-14T12:00:00Z", endTime: "2026-03-14T12:30:00Z" };
    await createManual(w, { roleId: role.id, startTime: "2026-03-14T09:00:00Z", endTime: "2026-03-14T17:00:00Z", breaks: [lunch] });
    await createManual(w, { roleId: role.id, startTime: "2026-03-15T09:00:00Z", endTime: "2026-03-15T13:10:00Z" });
    await lockDay(w, "2026-03-15");
    const res = await timesheets(w, { startDate: "2026-03-01", endDate: "2026-03-31" });
    expect(res.status).toBe(200);
    expect(Object.keys(res.body).sort()).toEqual(["lockedDays", "shifts", "totals"]);
    expect(res.body.lockedDays).toEqual(["2026-03-15"]);
    expect(res.body.shifts).toHaveLength(2);
    expect(Object.keys(res.body.shifts[0]).sort()).toEqual(SHIFT_FIELDS);
    expect(res.body.shifts.map((s: { locked: boolean }) => s.locked)).toEqual([false, true]);
    expect(res.body.shifts[0]).toMatchObject({
      startTime: "2026-03-14T09:00:00.000Z",
      utcStartTime: "2026-03-14T13:00:00.000Z",
      utcOffset: -240,
    });
    // 480 − 30 unpaid = 450 payable at 18 → 135.00; 250 payable at 18 → 75.00.
    expect(res.body.totals).toEqual({
      count: 2,
      duration: 730,
      totalPaidBreaks: 0,
      totalUnpaidBreaks: 30,
      payableDuration: 700,
      amount: 210,
    });
  });

  it("filters by locationId, employeeId, roleId, flagged and open, with totals over the filtered set", async () => {
    const { w, second, colleague, barista } = await seededWorkplace();
    const march = { startDate: "2026-03-01", endDate: "2026-03-31" };
    const all = (await timesheets(w, march)).body;
    expect(all.shifts).toHaveLength(6);
    const cases: [Record<string, string>, (s: Record<string, unknown>) => boolean][] = [
      [{ locationId: second.id }, (s) => s.locationId === second.id],
      [{ employeeId: colleague.id }, (s) => s.employeeId === colleague.id],
      [{ roleId: barista.id }, (s) => s.roleId === barista.id],
      [{ flagged: "true" }, (s) => (s.flags as string[]).length > 0],
      [{ flagged: "false" }, (s) => (s.flags as string[]).length === 0],
      [{ open: "true" }, (s) => s.endTime === null],
      [{ open: "false" }, (s) => s.endTime !== null],
      [{ employeeId: w.staff.id, locationId: w.location.id }, (s) => s.employeeId === w.staff.id && s.locationId === w.location.id],
    ];
    for (const [filter, keep] of cases) {
      const res = await timesheets(w, { ...march, ...filter });
      const expected = all.shifts.filter(keep);
      expect(expected.length, JSON.stringify(filter)).toBeGreaterThan(0);
      expect(expected.length, JSON.stringify(filter)).toBeLessThan(6);
      expect(ids(res.body.shifts), JSON.stringify(filter)).toEqual(ids(expected));
      expect(res.body.totals.count).toBe(expected.length);
      expect(res.body.totals.duration).toBe(sum(expected, "duration"));
      expect(res.body.totals.totalUnpaidBreaks).toBe(sum(expected, "totalUnpaidBreaks"));
    }
  });

  it("rejects a bad filter value with 400 naming it", async () => {
    const w = await createWorkplace();
    const res = await timesheets(w, { startDate: "2026-03-01", endDate: "2026-03-31", flagged: "yes" });
    expect(res.status).toBe(400);
    expect(res.body.errors[0].path).toBe("flagged");
  });

  it("pages with limit/cursor and a Link header while totals and lockedDays stay the whole range's", async () => {
    const w = await createWorkplace();
    const seeds = Array.from({ length: 25 }, (_, i) => ({
      employeeId: w.staff.id,
      locationId: w.location.id,
      roleId: w.roleId,
      ...newYork(`2026-05-${String(1 + (i % 20)).padStart(2, "0")}T${String(6 + Math.floor(i / 20) * 8).padStart(2, "0")}:00:00`),
      minutes: 60 + i,
    }));
    const seeded = await seedShifts(w.org.id, seeds);
    await lockDay(w, "2026-05-03");
    const pages = await allPages(`/api/timesheets?startDate=2026-05-01&endDate=2026-05-31&limit=10`, w.org.adminToken);
    expect(pages.map((p) => p.shifts.length)).toEqual([10, 10, 5]);
    const listed = pages.flatMap((p) => p.shifts) as { id: string; businessDate: string }[];
    expect(ids(listed)).toEqual(ids(seeded));
    const keys = listed.map((s) => `${s.businessDate}|${s.id}`);
    expect(keys).toEqual([...keys].sort());
    for (const page of pages) {
      expect(page.totals).toEqual(pages[0]!.totals);
      expect(page.lockedDays).toEqual(["2026-05-03"]);
    }
    expect(pages[0]!.totals).toMatchObject({ count: 25, duration: seeds.reduce((t, s) => t + s.minutes, 0) });
    const last = await api("GET", `/api/timesheets?startDate=2026-05-01&endDate=2026-05-31&limit=500`, { token: w.org.adminToken });
    expect(last.headers.get("Link")).toBeNull();
  });

  it("refuses a cursor it did not issue with 400", async () => {
    const w = await createWorkplace();
    const res = await timesheets(w, { startDate: "2026-05-01", endDate: "2026-05-31", cursor: "bm9wZQ" });
    expect(res.status).toBe(400);
    expect(res.body.errors[0].path).toBe("cursor");
  });

  it("refuses a start after the end, a range over 366 days and malformed dates with 400 naming the field", async () => {
    const w = await createWorkplace();
    const cases: [Record<string, string>, string][] = [
      [{ startDate: "2026-03-02", endDate: "2026-03-01" }, "endDate"],
      [{ startDate: "2026-01-01", endDate: "2027-01-02" }, "endDate"],
      [{ startDate: "2026-03-01T10:00:00Z", endDate: "2026-03-01T09:00:00Z" }, "endDate"],
      [{ startDate: "2026-13-01", endDate: "2026-12-31" }, "startDate"],
      [{ startDate: "2026-03-01", endDate: "next week" }, "endDate"],
      [{ endDate: "2026-03-01" }, "startDate"],
    ];
    for (const [query, path] of cases) {
      const res = await timesheets(w, query);
      expect(res.status, JSON.stringify(query)).toBe(400);
      expect(
        res.body.errors.map((e: { path: string }) => e.path),
        JSON.stringify(query),
      ).toContain(path);
    }
    expect((await timesheets(w, { startDate: "2026-01-01", endDate: "2027-01-01" })).status).toBe(200);
  });

  it("includes deleted shifts only with includeDeleted=true, and never in totals; updatedSince narrows", async () => {
    const w = await createWorkplace();
    const kept = await createManual(w, { startTime: "2026-03-10T09:00:00Z", endTime: "2026-03-10T10:00:00Z" });
    const gone = await createManual(w, { startTime: "2026-03-11T09:00:00Z", endTime: "2026-03-11T10:00:00Z" });
    await api("DELETE", `/api/timesheets/${gone.id}`, { token: w.org.adminToken });
    const range = { startDate: "2026-03-01", endDate: "2026-03-31" };
    expect(ids((await timesheets(w, range)).body.shifts)).toEqual([kept.id]);
    const withDeleted = (await timesheets(w, { ...range, includeDeleted: true })).body;
    expect(ids(withDeleted.shifts)).toEqual(ids([kept, gone]));
    expect(withDeleted.totals.count).toBe(1);
    const afterKept = new Date(Date.parse(kept.updatedAt) + 1).toISOString();
    const later = (await timesheets(w, { ...range, includeDeleted: true, updatedSince: afterKept })).body;
    expect(ids(later.shifts)).toEqual([gone.id]);
  });
});

describe("business dates", () => {
  const dayOf = async (w: Workplace, date: string) => ids((await timesheets(w, { startDate: date, endDate: date })).body.shifts);

  it("lists an overnight shift (22:00–06:00) on the date it started", async () => {
    const w = await createWorkplace();
    const night = await createManual(w, { startTime: "2026-03-13T22:00:00Z", endTime: "2026-03-14T06:00:00Z" });
    expect(night).toMatchObject({ businessDate: "2026-03-13", duration: 480 });
    expect(await dayOf(w, "2026-03-13")).toEqual([night.id]);
    expect(await dayOf(w, "2026-03-14")).toEqual([]);
  });

  it("counts the New York fall-back night 22:00–06:00 as 540 real minutes on 2026-10-31", async () => {
    const w = await createWorkplace();
    const night = await createManual(w, { startTime: "2026-10-31T22:00:00Z", endTime: "2026-11-01T06:00:00Z" });
    expect(night).toMatchObject({
      businessDate: "2026-10-31",
      duration: 540,
      utcOffset: -240,
      utcStartTime: "2026-11-01T02:00:00.000Z",
      utcEndTime: "2026-11-01T11:00:00.000Z",
    });
    // The wire writes both ends with the shift's one utcOffset: utcEndTime = endTime − utcOffset.
    expect(Date.parse(night.utcEndTime) - Date.parse(night.endTime)).toBe(240 * 60_000);
    expect(await dayOf(w, "2026-10-31")).toEqual([night.id]);
    expect(await dayOf(w, "2026-11-01")).toEqual([]);
  });

  it("counts the spring-forward night 22:00–06:00 as 420 minutes", async () => {
    const w = await createWorkplace();
    const night = await createManual(w, { startTime: "2026-03-07T22:00:00Z", endTime: "2026-03-08T06:00:00Z" });
    expect(night).toMatchObject({ businessDate: "2026-03-07", duration: 420, utcOffset: -300 });
  });

  it("compares start instants for ISO timestamp bounds and business dates for YYYY-MM-DD", async () => {
    const w = await createWorkplace();
    // 23:30 New York on the 14th is 03:30Z on the 15th.
    const late = await createManual(w, { startTime: "2026-03-14T23:30:00Z", endTime: "2026-03-15T01:00:00Z" });
    expect(await dayOf(w, "2026-03-14")).toEqual([late.id]);
    expect(await dayOf(w, "2026-03-15")).toEqual([]);
    const byInstant = await timesheets(w, { startDate: "2026-03-15T00:00:00Z", endDate: "2026-03-15T23:59:59Z" });
    expect(ids(byInstant.body.shifts)).toEqual([late.id]);
    const before = await timesheets(w, { startDate: "2026-03-14T00:00:00Z", endDate: "2026-03-15T03:29:59Z" });
    expect(before.body.shifts).toEqual([]);
    const inclusiveEnd = await timesheets(w, { startDate: "2026-03-14T00:00:00Z", endDate: "2026-03-15T03:30:00Z" });
    expect(ids(inclusiveEnd.body.shifts)).toEqual([late.id]);
  });
});

describe("locked and breaks of each listed shift", () => {
  it("marks a shift locked only on its own location's locked business date, on every page and in the export", async () => {
    const { w, second, colleague } = await seededWorkplace();
    // 2026-03-04: one shift at the second location; 2026-03-05: two at the first. Lock the 4th at the first only.
    await lockDay(w, "2026-03-04");
    await lockDay(w, "2026-03-05");
    const lockedAt = (s: { locationId: string; businessDate: string }) =>
      s.locationId === w.location.id && ["2026-03-04", "2026-03-05"].includes(s.businessDate);
    const march = "startDate=2026-03-01&endDate=2026-03-31";
    const onePerPage = (await allPages(`/api/timesheets?${march}&limit=1`, w.org.adminToken)).flatMap((p) => p.shifts) as unknown as {
      id: string;
      locationId: string;
      businessDate: string;
      locked: boolean;
    }[];
    expect(onePerPage).toHaveLength(6);
    expect(onePerPage.filter((s) => s.locked).map((s) => s.id)).toEqual(onePerPage.filter(lockedAt).map((s) => s.id));
    expect(onePerPage.filter((s) => s.locked)).toHaveLength(2);
    expect(onePerPage.find((s) => s.locationId === second.id)).toMatchObject({ businessDate: "2026-03-04", locked: false });
    const whole = (await timesheets(w, { startDate: "2026-03-01", endDate: "2026-03-31" })).body;
    expect(whole.lockedDays).toEqual(["2026-03-04", "2026-03-05"]);
    expect(whole.shifts.map((s: { locked: boolean }) => s.locked)).toEqual(onePerPage.map((s) => s.locked));
    const mine = (await timesheets(w, { startDate: "2026-03-01", endDate: "2026-03-31", employeeId: colleague.id })).body;
    expect(mine.shifts.map((s: { locked: boolean }) => s.locked)).toEqual([true, false]);
    const csv = (await api("GET", `/api/timesheets/export?${march}`, { token: w.org.adminToken })).text.split("\r\n").slice(1, -1);
    expect(csv.map((line) => line.endsWith(",true"))).toEqual(onePerPage.map((s) => s.locked));
  });

  it("marks a shift of an ISO timestamp range whose business date is before the range's first date, without listing that date", async () => {
    const w = await createWorkplace();
    // 23:30 New York on the 14th is 03:30Z on the 15th: business date 2026-03-14.
    const late = await createManual(w, { startTime: "2026-03-14T23:30:00Z", endTime: "2026-03-15T01:00:00Z" });
    await lockDay(w, "2026-03-14");
    const res = await timesheets(w, { startDate: "2026-03-15T00:00:00Z", endDate: "2026-03-15T23:59:59Z" });
    expect(res.body.shifts).toMatchObject([{ id: late.id, businessDate: "2026-03-14", locked: true }]);
    expect(res.body.lockedDays).toEqual([]);
    const csv = (
      await api("GET", "/api/timesheets/export?startDate=2026-03-15T00:00:00Z&endDate=2026-03-15T23:59:59Z", { token: w.org.adminToken })
    ).text;
    expect(csv.trimEnd().endsWith(",true")).toBe(true);
  });

  it("lists each shift's own breaks in start order, as GET /timesheets/{id} shows them", async () => {
    const w = await createWorkplace();
    const day = (d: number, h: number, m = 0) =>
      `2026-03-${String(d).padStart(2, "0")}T${String(h).padStart(2, "0")}:${String(m).padStart(2, "0")}:00Z`;
    const made = [];
    for (const d of [10, 11, 12]) {
      made.push(
        await createManual(w, {
          startTime: day(d, 8),
          endTime: day(d, 17),
          breaks: [
            { startTime: day(d, 15), endTime: day(d, 15, 10), name: "Tea" },
            { startTime: day(d, 10), endTime: day(d, 10, 15), name: "Coffee" },
            { startTime: day(d, 12), endTime: day(d, 12, 30), name: "Lunch" },
          ],
        }),
      );
    }
    made.push(await createManual(w, { startTime: day(13, 8), endTime: day(13, 12) }));
    const listed = (await allPages("/api/timesheets?startDate=2026-03-01&endDate=2026-03-31&limit=2", w.org.adminToken)).flatMap(
      (p) => p.shifts,
    ) as unknown as { id: string; breaks: { name: string }[] }[];
    expect(listed.map((s) => s.breaks.map((b) => b.name))).toEqual([
      ["Coffee", "Lunch", "Tea"],
      ["Coffee", "Lunch", "Tea"],
      ["Coffee", "Lunch", "Tea"],
      [],
    ]);
    for (const shift of listed) {
      const one = await api("GET", `/api/timesheets/${shift.id}`, { token: w.org.adminToken });
      expect(shift.breaks).toEqual(one.body.breaks);
    }
  });
});

describe("GET /api/organizations/{organization_id}/locations/{id}/timesheets", () => {
  it("lists one location's shifts, totals and locked days", async () => {
    const { w, second } = await seededWorkplace();
    await lockDay(w, "2026-03-04");
    const res = await api(
      "GET",
      `/api/organizations/${w.org.id}/locations/${second.id}/timesheets?startDate=2026-03-01&endDate=2026-03-31`,
      {
        token: w.org.adminToken,
      },
    );
    expect(res.status).toBe(200);
    expect(res.body.shifts.map((s: { locationId: string }) => s.locationId)).toEqual([second.id]);
    expect(res.body.totals.count).toBe(1);
    expect(res.body.lockedDays).toEqual([]);
    const first = await api(
      "GET",
      `/api/organizations/${w.org.id}/locations/${w.location.id}/timesheets?startDate=2026-03-01&endDate=2026-03-31`,
      {
        token: w.org.adminToken,
      },
    );
    expect(first.body.lockedDays).toEqual(["2026-03-04"]);
  });

  it("is 404 for an unknown location and 400 for a bad range", async () => {
    const w = await createWorkplace();
    const unknown = await api("GET", `/api/organizations/${w.org.id}/locations/nope/timesheets?startDate=2026-03-01&endDate=2026-03-31`, {
      token: w.org.adminToken,
    });
    expect(unknown.status).toBe(404);
    const bad = await api(
      "GET",
      `/api/organizations/${w.org.id}/locations/${w.location.id}/timesheets?startDate=2026-03-31&endDate=2026-03-01`,
      {
        token: w.org.adminToken,
      },
    );
    expectInvalid(bad, ["endDate"]);
  });
});
