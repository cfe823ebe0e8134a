import { describe, expect, it } from "vitest";
import { api } from "../../helpers/api";
import { unique } from "../../helpers/fixtures";
import { createLocation } from "../../helpers/locations";
import { payLines } from "../../helpers/pay";
import { recordingRequest } from "../../helpers/recording-d1";
import { staffPath } from "../../helpers/staff";
import { createPolicy, dayFromToday, orgPath, setBalance } from "../../helpers/time-off";
import { seedShifts } from "../../helpers/timesheets";
import { createWorkplace, type Workplace } from "../../helpers/workplace";

type Totals = Record<"regularMinutes" | "overtimeMinutes" | "doubleTimeMinutes" | "penaltyHours" | "timeOffHours" | "grossPay", number>;
type EmployeePay = Totals & { employeeId: string; lines: unknown[] };
type PayBody = { startDate: string; endDate: string; employees: EmployeePay[]; totals: Totals };

const TOTALS = ["regularMinutes", "overtimeMinutes", "doubleTimeMinutes", "penaltyHours", "timeOffHours", "grossPay"] as const;
const cents = (n: number) => Math.round(n * 100);
const sumOf = (items: Totals[]) => Object.fromEntries(TOTALS.map((k) => [k, cents(items.reduce((a, t) => a + t[k], 0))]));
const inCents = (t: Totals) => Object.fromEntries(TOTALS.map((k) => [k, cents(t[k])]));
const nextOf = (res: { headers: Headers }) => /^<([^>]+)>; rel="next"$/.exec(res.headers.get("Link") ?? "")?.[1] ?? null;

/** A range a week from today (time off is requested ahead), its middle day `day`. */
const day = dayFromToday(10);
const addDays = (date: string, days: number) => new Date(Date.parse(`${date}T00:00:00Z`) + days * 86_400_000).toISOString().slice(0, 10);
const RANGE = { startDate: addDays(day, -3), endDate: addDays(day, 3) };

/** `count` staff members made by one sync, with their ids in id order. */
async function syncStaff(w: Workplace, count: number) {
  const records = Array.from({ length: count }, (_, i) => ({ externalId: unique(`emp-${i}`), name: `Staff ${i}` }));
  const synced = await api("POST", staffPath(w.org, "/sync"), { token: w.org.adminToken, body: { records } });
  if (synced.status !== 200) throw new Error(`sync: ${synced.status} ${synced.text}`);
  const listed = await api("GET", staffPath(w.org, "?limit=500"), { token: w.org.adminToken });
  return (listed.body as { id: string; externalId: string | null }[]).filter((s) => s.externalId?.startsWith("emp-"));
}

/** Shifts of `hours` on `days` days of the range for each staff member (at $20 + i), at `locationId`. */
function shiftsFor(w: Workplace, staff: { id: string }[], locationId: string, days: number, hours = (i: number) => 8 + (i % 4)) {
  return seedShifts(
    w.org.id,
    staff.flatMap((s, i) =>
      Array.from({ length: days }, (_, d) => ({
        employeeId: s.id,
        locationId,
        roleId: w.roleId,
        start: new Date(`${addDays(RANGE.startDate, d)}T12:00:00Z`),
        minutes: hours(i) * 60,
        utcOffset: 0,
        hourlyWage: 20 + i,
      })),
    ),
  );
}

/** Every page of pay lines from `query`, following the Link; each page at most `limit` staff members. */
async function allPayPages(w: Workplace, query: Record<string, string>, limit: number) {
  const pages: PayBody[] = [];
  let next: string | null = `/api/timesheets/pay?${new URLSearchParams({ ...query, limit: String(limit) })}`;
  while (next !== null) {
    const res = await api("GET", next, { token: w.org.adminToken });
    expect(res.status, res.text.slice(0, 300)).toBe(200);
    expect(res.body.employees.length).toBeLessThanOrEqual(limit);
    pages.push(res.body);
    next = nextOf(res);
    expect(pages.length, "too many pages").toBeLessThan(50);
  }
  return pages;
}

/** Eleven staff members: shifts for nine (two at a second location), paid time off only for one, nothing for one. */
async function payroll() {
  const w = await createWorkplace();
  const staff = await syncStaff(w, 11);
  const second = await createLocation(w.org, { name: "Second", timezone: "UTC" });
  await shiftsFor(w, staff.slice(0, 7), w.location.id, 6);
  await shiftsFor(w, staff.slice(7, 9), second.id, 3, () => 12);
  const worker = staff[9]!;
  const place = { org: w.org, worker, workerToken: "", policy: await createPolicy(w.org) };
  await setBalance(place, 40, worker);
  const request = await api("POST", orgPath(w.org, "/time-off-requests"), {
    token: w.org.adminToken,
    body: { workerId: worker.id, policyId: place.policy.id, startTime: `${day}T09:00:00Z`, endTime: `${day}T17:00:00Z` },
  });
  expect(request.status, request.text).toBe(201);
  const approved = await api("POST", orgPath(w.org, `/time-off-requests/${request.body.id}/approve`), { token: w.org.adminToken });
  expect(approved.status, approved.text).toBe(200);
  return { w, staff, second, timeOffWorker: worker };
}

describe("GET /api/timesheets/pay: paged by staff member", () => {
  it("every page of 3 in turn answers the staff members and lines of one page of 500, in id order; a page's totals are its staff members'", async () => {
    const { w, staff, timeOffWorker } = await payroll();
    const whole = await payLines(w, { ...RANGE, limit: "500" });
    expect(whole.status).toBe(200);
    expect(whole.headers.get("Link")).toBeNull();
    const ids = (whole.body as PayBody).employees.map((e) => e.employeeId);
    expect(ids).toEqual(
      staff
        .slice(0, 10)
        .map((s) => s.id)
        .sort(),
    );
    expect((whole.body as PayBody).employees.find((e) => e.employeeId === timeOffWorker.id)).toMatchObject({ timeOffHours: 8 });

    const pages = await allPayPages(w, RANGE, 3);
    expect(pages.length).toBe(4);
    expect(pages.flatMap((p) => p.employees)).toEqual((whole.body as PayBody).employees);
    for (const page of pages) {
      expect(page).toMatchObject(RANGE);
      expect(inCents(page.totals)).toEqual(sumOf(page.employees));
    }
    expect(sumOf(pages.map((p) => p.totals))).toEqual(inCents((whole.body as PayBody).totals));
  });

  it("the answer, written employee by employee, is the bytes of the whole as JSON: members in order, totals last; an empty page too", async () => {
    const { w } = await payroll();
    const res = await payLines(w, { ...RANGE, limit: "500" });
    expect(res.status).toBe(200);
    expect(res.headers.get("Content-Type")).toBe("application/json");
    const body = res.body as PayBody;
    expect(body.employees.length).toBeGreaterThan(1);
    expect(Object.keys(body)).toEqual(["startDate", "endDate", "employees", "totals"]);
    expect(Object.keys(body.employees[0]!).slice(0, 4)).toEqual(["employeeId", "externalId", "externalPayrollId", "currencyCode"]);
    expect(Object.keys(body.employees[0]!).slice(-2)).toEqual(["workweeks", "lines"]);
    expect(res.text).toBe(JSON.stringify(body));
    expect(inCents(body.totals)).toEqual(sumOf(body.employees));

    const empty = await payLines(w, { startDate: addDays(RANGE.endDate, 30), endDate: addDays(RANGE.endDate, 31) });
    expect(empty.status).toBe(200);
    const none = { startDate: addDays(RANGE.endDate, 30), endDate: addDays(RANGE.endDate, 31), employees: [] };
    expect(empty.text).toBe(
      JSON.stringify({
        ...none,
        totals: { regularMinutes: 0, overtimeMinutes: 0, doubleTimeMinutes: 0, penaltyHours: 0, timeOffHours: 0, grossPay: 0 },
      }),
    );
  });

  it("without limit a page holds 100 staff members; a page of 200 reads by IN lists of at most 100 bound parameters, in two round trips", async () => {
    const w = await createWorkplace();
    const staff = await syncStaff(w, 205);
    await shiftsFor(w, staff, w.location.id, 1);
    const first = await payLines(w, RANGE);
    expect(first.status).toBe(200);
    expect(first.body.employees.length).toBe(100);
    expect(nextOf(first)).toMatch(/cursor=/);

    const big = await recordingRequest("GET", `/api/timesheets/pay?${new URLSearchParams({ ...RANGE, limit: "200" })}`, {
      token: w.org.adminToken,
    });
    expect(big.status).toBe(200);
    const body = big.body as unknown as PayBody;
    expect(body.employees.map((e) => e.employeeId)).toEqual(
      staff
        .map((s) => s.id)
        .sort()
        .slice(0, 200),
    );
    expect(big.trips.length).toBe(2);
    for (const sql of big.trips.flat()) expect(sql.split("?").length - 1, sql.slice(0, 200)).toBeLessThanOrEqual(100);

    const pages = await allPayPages(w, RANGE, 200);
    expect(pages.flatMap((p) => p.employees.map((e) => e.employeeId))).toEqual(staff.map((s) => s.id).sort());
  });

  it("locationId pages its staff members alone, the same as one page", async () => {
    const { w, staff, second } = await payroll();
    const query = { ...RANGE, locationId: second.id };
    const whole = await payLines(w, { ...query, limit: "500" });
    expect(whole.body.employees.map((e: EmployeePay) => e.employeeId)).toEqual(
      staff
        .slice(7, 9)
        .map((s) => s.id)
        .sort(),
    );
    const pages = await allPayPages(w, query, 1);
    expect(pages.length).toBe(2);
    expect(pages.flatMap((p) => p.employees)).toEqual(whole.body.employees);
  });

  it("limit outside 1–500 or not decimal digits is 400 naming limit; a cursor of another range or list is 400 naming cursor", async () => {
    const { w } = await payroll();
    for (const limit of ["0", "501", "abc", "1.5"]) {
      const res = await payLines(w, { ...RANGE, limit });
      expect(res.status, limit).toBe(400);
      expect(res.body.code).toBe("VALIDATION_FAILED");
      expect(res.body.errors.map((e: { path: string }) => e.path)).toContain("limit");
    }
    const link = nextOf(await payLines(w, { ...RANGE, limit: "2" }))!;
    const cursor = new URL(link, "https://x").searchParams.get("cursor")!;
    const otherRange = await payLines(w, { startDate: RANGE.startDate, endDate: addDays(RANGE.endDate, 1), cursor });
    expect(otherRange.status).toBe(400);
    expect(otherRange.body.errors.map((e: { path: string }) => e.path)).toEqual(["cursor"]);
    const staffCursor = nextOf(await api("GET", staffPath(w.org, "?limit=1"), { token: w.org.adminToken }))!;
    const fromStaff = await payLines(w, { ...RANGE, cursor: new URL(staffCursor, "https://x").searchParams.get("cursor")! });
    expect(fromStaff.status).toBe(400);
    expect(fromStaff.body.errors.map((e: { path: string }) => e.path)).toEqual(["cursor"]);
  });

  it("a cursor of the same range under another filter is harmless: the staff members after it that the filter keeps", async () => {
    const { w, staff, second } = await payroll();
    const paid = staff
      .slice(0, 10)
      .map((s) => s.id)
      .sort();
    const there = staff
      .slice(7, 9)
      .map((s) => s.id)
      .sort();
    // A page of every staff member ending with the location's first one.
    const link = nextOf(await payLines(w, { ...RANGE, limit: String(paid.indexOf(there[0]!) + 1) }))!;
    const cursor = new URL(link, "https://x").searchParams.get("cursor")!;
    const res = await payLines(w, { ...RANGE, locationId: second.id, cursor });
    expect(res.status).toBe(200);
    expect(res.body.employees.map((e: EmployeePay) => e.employeeId)).toEqual([there[1]]);
  });
});
