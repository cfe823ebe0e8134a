import { describe, expect, it } from "vitest";
import { createDatabase } from "@/data/client";
import { encodeOccurrenceCursor, expandRange } from "@/features/availability/availability.data";
import { api } from "../../helpers/api";
import { allPages } from "../../helpers/pages";
import { tenantDb } from "../../helpers/shards";
import { createStaffMember, staffToken } from "../../helpers/staff";
import { createWorkplace, type Workplace } from "../../helpers/workplace";

const staffPath = (w: Workplace, id = w.staff.id) => `/api/organizations/${w.org.id}/staffmembers/${id}/availability`;
const weekly = {
  type: "UNAVAILABLE",
  startTime: "2026-03-02T09:00:00Z",
  endTime: "2026-03-02T17:00:00Z",
  recurrence: "FREQ=WEEKLY;BYDAY=MO,WE",
};
const feed = async (w: Workplace) =>
  ((await api("GET", `/api/organizations/${w.org.id}/events?limit=500`, { token: w.org.adminToken })).body as { type: string }[]).map(
    (e) => e.type,
  );

describe("availability rules", () => {
  it("a staff member adds their own; it reads back with the organization's zone by default, and records its event", async () => {
    const w = await createWorkplace();
    const res = await api("POST", staffPath(w), { token: w.token, body: { ...weekly, note: "Classes" } });
    expect(res.status).toBe(201);
    expect(res.headers.get("ETag")).toBeTruthy();
    expect(res.body).toMatchObject({
      employeeId: w.staff.id,
      type: "UNAVAILABLE",
      startTime: "2026-03-02T09:00:00.000Z",
      endTime: "2026-03-02T17:00:00.000Z",
      timezone: "UTC",
      recurrence: "FREQ=WEEKLY;BYDAY=MO,WE",
      note: "Classes",
    });
    expect((await api("GET", `${staffPath(w)}/${res.body.id}`, { token: w.token })).body).toEqual(res.body);
    expect((await api("GET", staffPath(w), { token: w.org.adminToken })).body).toEqual([res.body]);
    expect(await feed(w)).toContain("availability.created");
  });

  it("refuses an invalid RRULE, an end before the start, an occurrence over 7 days and a bad zone with 400, writing nothing", async () => {
    const w = await createWorkplace();
    const bad: [Record<string, unknown>, string][] = [
      [{ recurrence: "FREQ=HOURLY" }, "recurrence"],
      [{ recurrence: "FREQ=WEEKLY;BYDAY=XX" }, "recurrence"],
      [{ recurrence: "every monday" }, "recurrence"],
      [{ endTime: "2026-03-02T08:00:00Z" }, "endTime"],
      [{ endTime: "2026-03-12T08:00:00Z" }, "endTime"],
      [{ timezone: "Mars/Olympus" }, "timezone"],
      [{ type: "MAYBE" }, "type"],
      [{ startTime: "2026-02-30T09:00:00Z" }, "startTime"],
    ];
    for (const [body, path] of bad) {
      const res = await api("POST", staffPath(w), { token: w.token, body: { ...weekly, ...body } });
      expect(res.status, JSON.stringify(body)).toBe(400);
      expect(res.body.errors.map((e: { path: string }) => e.path)).toContain(path);
    }
    expect((await api("GET", staffPath(w), { token: w.token })).body).toEqual([]);
  });

  it("PATCH and DELETE under If-Match; another staff member's rules are 403, another organization's 404", async () => {
    const w = await createWorkplace();
    const created = (await api("POST", staffPath(w), { token: w.token, body: weekly })).body;
    const url = `${staffPath(w)}/${created.id}`;
    const colleague = await createStaffMember(w.org, { locationIds: [w.location.id], accessRoleName: "Employee" });
    const colleagueToken = await staffToken(w.org, colleague.id);
    expect((await api("GET", url, { token: colleagueToken })).status).toBe(403);
    expect((await api("PATCH", url, { token: colleagueToken, body: { note: "x" } })).status).toBe(403);
    expect((await api("POST", staffPath(w), { token: colleagueToken, body: weekly })).status).toBe(403);
    const other = await createWorkplace();
    expect((await api("GET", url, { token: other.org.adminToken })).status).toBe(404);
    expect((await api("GET", `${staffPath(w)}/nope`, { token: w.token })).body.code).toBe("AVAILABILITY_NOT_FOUND");
    expect((await api("GET", staffPath(w, "nope"), { token: w.org.adminToken })).body.code).toBe("STAFF_MEMBER_NOT_FOUND");

    expect((await api("PATCH", url, { token: w.token, body: { note: "x" }, headers: { "If-Match": '"1"' } })).status).toBe(412);
    const patched = await api("PATCH", url, { token: w.org.adminToken, body: { type: "PREFERRED", recurrence: null } });
    expect(patched.status).toBe(200);
    expect(patched.body).toMatchObject({ type: "PREFERRED", recurrence: null });
    expect((await api("PATCH", url, { token: w.token, body: { recurrence: "FREQ=SECONDLY" } })).status).toBe(400);
    const removed = await api("DELETE", url, { token: w.token });
    expect(removed.status).toBe(200);
    expect((await api("GET", url, { token: w.token })).status).toBe(404);
    expect((await feed(w)).filter((t) => t.startsWith("availability."))).toEqual([
      "availability.created",
      "availability.updated",
      "availability.deleted",
    ]);
  });
});

describe("GET …/staffmembers/{id}/availability", () => {
  it("pages a staff member's rules by first occurrence with limit, cursor and Link", async () => {
    const w = await createWorkplace();
    const starts = ["2026-03-05", "2026-03-02", "2026-03-04", "2026-03-02", "2026-03-03"];
    const made: { id: string; startTime: string }[] = [];
    for (const day of starts) {
      const res = await api("POST", staffPath(w), {
        token: w.token,
        body: { ...weekly, startTime: `${day}T09:00:00Z`, endTime: `${day}T17:00:00Z` },
      });
      expect(res.status).toBe(201);
      made.push(res.body);
    }
    const expected = made
      .map((r) => `${r.startTime}|${r.id}`)
      .sort()
      .map((key) => key.split("|")[1]);
    const first = await api("GET", `${staffPath(w)}?limit=2`, { token: w.token });
    expect(first.body).toHaveLength(2);
    expect(first.headers.get("Link")).toMatch(/^<\/api\/organizations\/[^>]+cursor=[^>]+>; rel="next"$/);
    const pages = await allPages(`${staffPath(w)}?limit=2`, w.token, 2);
    expect(pages.map((p) => p.length)).toEqual([2, 2, 1]);
    expect(pages.flat().map((r: { id: string }) => r.id)).toEqual(expected);
  });
});

describe("GET /organizations/{org}/availability", () => {
  it("expands occurrences over a range, keeping 09:00 local across DST", async () => {
    const w = await createWorkplace();
    await api("POST", staffPath(w), { token: w.token, body: { ...weekly, timezone: "America/New_York" } });
    const res = await api("GET", `/api/organizations/${w.org.id}/availability?startDate=2026-03-02&endDate=2026-03-11`, {
      token: w.org.adminToken,
    });
    expect(res.status).toBe(200);
    expect(res.body.map((o: { startTime: string; utcStartTime: string }) => [o.startTime, o.utcStartTime])).toEqual([
      ["2026-03-02T09:00:00.000Z", "2026-03-02T14:00:00.000Z"],
      ["2026-03-04T09:00:00.000Z", "2026-03-04T14:00:00.000Z"],
      ["2026-03-09T09:00:00.000Z", "2026-03-09T13:00:00.000Z"],
      ["2026-03-11T09:00:00.000Z", "2026-03-11T13:00:00.000Z"],
    ]);
    expect(res.body[0]).toMatchObject({ employeeId: w.staff.id, type: "UNAVAILABLE", endTime: "2026-03-02T17:00:00.000Z" });
  });

  it("a staff member without SCHEDULE_READ sees only their own; filters by location; ranges over 92 days are 400", async () => {
    const w = await createWorkplace();
    const colleague = await createStaffMember(w.org, { accessRoleName: "Employee" });
    await api("POST", staffPath(w), { token: w.token, body: weekly });
    await api("POST", staffPath(w, colleague.id), { token: w.org.adminToken, body: weekly });
    const range = `/api/organizations/${w.org.id}/availability?startDate=2026-03-02&endDate=2026-03-02`;
    expect((await api("GET", range, { token: w.org.adminToken })).body).toHaveLength(2);
    const own = await api("GET", range, { token: w.token });
    expect(own.body.map((o: { employeeId: string }) => o.employeeId)).toEqual([w.staff.id]);
    const atLocation = await api("GET", `${range}&locationId=${w.location.id}`, { token: w.org.adminToken });
    expect(atLocation.body.map((o: { employeeId: string }) => o.employeeId)).toEqual([w.staff.id]);
    const long = await api("GET", `/api/organizations/${w.org.id}/availability?startDate=2026-01-01&endDate=2026-06-01`, {
      token: w.org.adminToken,
    });
    expect(long.status).toBe(400);
    const other = await createWorkplace();
    expect((await api("GET", range, { token: other.org.adminToken })).status).toBe(404);
  });

  it("pages the expansion by (utcStartTime, availabilityId) with limit, cursor and Link: every occurrence is reachable once", async () => {
    const w = await createWorkplace();
    const colleague = await createStaffMember(w.org, { accessRoleName: "Employee" });
    const daily = { ...weekly, recurrence: "FREQ=DAILY", timezone: "America/New_York" };
    // Two rules starting at the same instants: ties are broken by availabilityId, so no page boundary loses one.
    await api("POST", staffPath(w), { token: w.org.adminToken, body: daily });
    await api("POST", staffPath(w, colleague.id), { token: w.org.adminToken, body: daily });
    const range = `/api/organizations/${w.org.id}/availability?startDate=2026-03-02&endDate=2026-06-01`;
    const first = await api("GET", range, { token: w.org.adminToken });
    expect(first.status).toBe(200);
    expect(first.body).toHaveLength(100);
    expect(first.headers.get("Link")).toMatch(/^<\/api\/organizations\/[^>]+cursor=[^>]+>; rel="next"$/);
    const key = (o: { utcStartTime: string; availabilityId: string }) => `${o.utcStartTime}|${o.availabilityId}`;
    const pages = await allPages(`${range}&limit=7`, w.org.adminToken, 7);
    const all = pages.flat().map(key);
    // 92 days × 2 rules, each once, in order.
    expect(all).toHaveLength(184);
    expect(new Set(all).size).toBe(184);
    expect(all).toEqual([...all].sort());
    expect(pages.at(-1)!.length).toBe(184 % 7);
    expect((await allPages(range, w.org.adminToken, 100)).flat().map(key)).toEqual(all);
  });
});

describe("expansion read in parts (issue 50)", () => {
  it("reads a location's rules a few at a time, by staff member then rule, and pages exactly as reading them all at once", async () => {
    const w = await createWorkplace();
    const colleagues = [
      await createStaffMember(w.org, { locationIds: [w.location.id], accessRoleName: "Employee" }),
      await createStaffMember(w.org, { locationIds: [w.location.id], accessRoleName: "Employee" }),
    ];
    const elsewhere = await createStaffMember(w.org, { accessRoleName: "Employee" });
    // Three rules of one staff member (a part may end inside a staff member's rules), one or two of each other, one deleted.
    const rules = [
      [w.staff.id, { ...weekly, recurrence: "FREQ=DAILY" }],
      [w.staff.id, { ...weekly, recurrence: "FREQ=WEEKLY;BYDAY=TU" }],
      [w.staff.id, { ...weekly, type: "PREFERRED", recurrence: null }],
      [colleagues[0]!.id, { ...weekly, timezone: "America/New_York" }],
      [colleagues[1]!.id, weekly],
      [colleagues[1]!.id, { ...weekly, recurrence: "FREQ=WEEKLY;BYDAY=FR" }],
      [elsewhere.id, { ...weekly, recurrence: "FREQ=DAILY" }],
    ] as const;
    const made: { id: string }[] = [];
    for (const [id, body] of rules) made.push((await api("POST", staffPath(w, id), { token: w.org.adminToken, body })).body);
    await api("DELETE", `${staffPath(w, colleagues[1]!.id)}/${made[5]!.id}`, { token: w.org.adminToken });
    const db = createDatabase(tenantDb());
    const range = { startDate: "2026-03-02", endDate: "2026-03-15" };
    const walk = async (query: { locationId?: string; employeeId?: string }, limit: number, rulesPerRead: number) => {
      const seen: string[] = [];
      let cursor: string | undefined;
      for (let n = 0; n < 100; n++) {
        const page = await expandRange(db, w.org.id, { ...range, ...query, limit, cursor }, rulesPerRead);
        const shown = page.slice(0, limit);
        seen.push(...shown.map((o) => `${o.utcStartTime} ${o.employeeId} ${o.availabilityId} ${o.type}`));
        if (page.length <= limit) return seen;
        cursor = encodeOccurrenceCursor(shown.at(-1)!);
      }
      throw new Error("the walk did not end");
    };
    // Daily over 14 days (14), two Tuesdays, the one-off, two Mondays and Wednesdays (4) in New York, two of a weekly
    // rule at UTC; the deleted rule and the other location's staff member's none.
    const atLocation = await walk({ locationId: w.location.id }, 1000, 1000);
    expect(atLocation).toHaveLength(14 + 2 + 1 + 4 + 4);
    expect(atLocation.some((o) => o.includes(made[5]!.id) || o.includes(elsewhere.id))).toBe(false);
    for (const rulesPerRead of [1, 2, 3]) {
      for (const limit of [2, 1000]) {
        expect(await walk({ locationId: w.location.id }, limit, rulesPerRead), `${rulesPerRead} rules a read, ${limit} a page`).toEqual(
          atLocation,
        );
      }
      expect(await walk({}, 5, rulesPerRead)).toEqual(await walk({}, 1000, 1000));
      expect(await walk({ employeeId: w.staff.id }, 3, rulesPerRead)).toEqual(atLocation.filter((o) => o.includes(w.staff.id)));
    }
  });
});

describe("recurrence read strictly (issue 29, items 1 and 2)", () => {
  it("reads parts in any case and stores the canonical upper-case form, on POST and PATCH", async () => {
    const w = await createWorkplace();
    for (const recurrence of ["FREQ=WEEKLY;BYDAY=mo", "FREQ=WEEKLY;BYDAY=Mo", "freq=weekly;byday=mo", "RRULE:Freq=Weekly;ByDay=Mo"]) {
      const res = await api("POST", staffPath(w), { token: w.token, body: { ...weekly, recurrence } });
      expect(res.status, recurrence).toBe(201);
      expect(res.body.recurrence).toBe("FREQ=WEEKLY;BYDAY=MO");
      expect((await api("GET", `${staffPath(w)}/${res.body.id}`, { token: w.token })).body.recurrence).toBe("FREQ=WEEKLY;BYDAY=MO");
    }
    const [first] = (await api("GET", staffPath(w), { token: w.token })).body;
    const patched = await api("PATCH", `${staffPath(w)}/${first.id}`, { token: w.token, body: { recurrence: "freq=monthly;byday=+1mo" } });
    expect(patched.status).toBe(200);
    expect(patched.body.recurrence).toBe("FREQ=MONTHLY;BYDAY=1MO");
    const range = await api("GET", `/api/organizations/${w.org.id}/availability?startDate=2026-03-30&endDate=2026-04-30`, {
      token: w.org.adminToken,
    });
    expect(
      range.body.filter((o: { availabilityId: string }) => o.availabilityId === first.id).map((o: { startTime: string }) => o.startTime),
    ).toEqual(["2026-04-06T09:00:00.000Z"]);
  });

  it("answers 400 naming recurrence, never 500, for what rrule would throw on or RFC 5545 forbids, writing nothing", async () => {
    const w = await createWorkplace();
    const created = (await api("POST", staffPath(w), { token: w.token, body: weekly })).body;
    const before = await feed(w);
    const refused = [
      "FREQ=MONTHLY;BYSETPOS=0;BYDAY=MO",
      "FREQ=MONTHLY;BYSETPOS=367;BYDAY=MO",
      "FREQ=MONTHLY;BYSETPOS=-367;BYDAY=MO",
      "FREQ=MONTHLY;BYSETPOS=400;BYDAY=MO",
      "FREQ=WEEKLY;FREQ=DAILY",
      "FREQ=DAILY;COUNT=3;UNTIL=20270101T000000Z",
      "FREQ=YEARLY;BYMONTH=0",
      "FREQ=YEARLY;BYMONTH=13",
      "FREQ=WEEKLY;WKST=XX",
      "FREQ=WEEKLY;BYDAY=+1MO",
      "FREQ=WEEKLY;UNTIL=20260301T000000Z",
      "FREQ=DAILY;UNTIL=19691231T000000Z",
      "FREQ=DAILY;UNTIL=22010101T000000Z",
      "FREQ=DAILY;UNTIL=20260230",
      "FREQ=DAILY;BYMONTH=2;BYMONTHDAY=30",
    ];
    for (const recurrence of refused) {
      for (const [method, url] of [
        ["POST", staffPath(w)],
        ["PATCH", `${staffPath(w)}/${created.id}`],
      ] as const) {
        const res = await api(method, url, { token: w.token, body: { ...(method === "POST" ? weekly : {}), recurrence } });
        expect(res.status, `${method} ${recurrence}`).toBe(400);
        expect(res.body.code).toBe("VALIDATION_FAILED");
        expect(res.body.errors.map((e: { path: string }) => e.path)).toEqual(["recurrence"]);
      }
    }
    expect((await api("GET", staffPath(w), { token: w.token })).body).toEqual([created]);
    expect(await feed(w)).toEqual(before);
  });
});

describe("exdates", () => {
  const mondays = { ...weekly, recurrence: "FREQ=WEEKLY;BYDAY=MO", startTime: "2026-12-07T09:00:00Z", endTime: "2026-12-07T17:00:00Z" };
  const december = (w: Workplace) =>
    api("GET", `/api/organizations/${w.org.id}/availability?startDate=2026-12-01&endDate=2026-12-31`, { token: w.org.adminToken }).then(
      (r) => (r.body as { startTime: string }[]).map((o) => o.startTime.slice(0, 10)),
    );

  it("skips the dates listed (every Monday except the 14th); stored unique and in order; PATCH replaces them", async () => {
    const w = await createWorkplace();
    const res = await api("POST", staffPath(w), {
      token: w.token,
      body: { ...mondays, exdates: ["2026-12-28", "2026-12-14", "2026-12-14"] },
    });
    expect(res.status).toBe(201);
    expect(res.body.exdates).toEqual(["2026-12-14", "2026-12-28"]);
    expect((await api("GET", `${staffPath(w)}/${res.body.id}`, { token: w.token })).body.exdates).toEqual(["2026-12-14", "2026-12-28"]);
    expect(await december(w)).toEqual(["2026-12-07", "2026-12-21"]);
    const patched = await api("PATCH", `${staffPath(w)}/${res.body.id}`, { token: w.token, body: { exdates: ["2026-12-21"] } });
    expect(patched.status).toBe(200);
    expect(patched.body.exdates).toEqual(["2026-12-21"]);
    expect(await december(w)).toEqual(["2026-12-07", "2026-12-14", "2026-12-28"]);
    const plain = await api("POST", staffPath(w), { token: w.token, body: weekly });
    expect(plain.body.exdates).toEqual([]);
  });

  it("refuses dates that are not YYYY-MM-DD and more than 366 of them, naming exdates", async () => {
    const w = await createWorkplace();
    const many = Array.from({ length: 367 }, (_, i) => new Date(Date.UTC(2027, 0, 1 + i)).toISOString().slice(0, 10));
    for (const exdates of [["2026-02-30"], ["20261214"], "2026-12-14", many]) {
      const res = await api("POST", staffPath(w), { token: w.token, body: { ...mondays, exdates } });
      expect(res.status, JSON.stringify(exdates).slice(0, 40)).toBe(400);
      expect(res.body.errors.map((e: { path: string }) => e.path.split(".")[0]).filter((p: string) => p === "exdates")).not.toEqual([]);
    }
    expect((await api("GET", staffPath(w), { token: w.token })).body).toEqual([]);
  });
});
