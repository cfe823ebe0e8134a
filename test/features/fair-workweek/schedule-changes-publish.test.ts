import { scheduleChanges, scheduleEntries } from "@db/schema";
import { asc, eq, sql } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { createDatabase } from "@/data/client";
import { changeRulesOfLocation } from "@/data/fair-workweek/change-rules.data";
import { recordingPublishedAdditions } from "@/data/fair-workweek/published-additions.data";
import { changeRowsOf } from "@/data/fair-workweek/schedule-changes.data";
import { newId } from "@/data/ids";
import { api } from "../../helpers/api";
import { addWorker, createEntry, createOpenShift, createSchedulePlace, type SchedulePlace, setPackSince } from "../../helpers/schedules";
import { tenantDb } from "../../helpers/shards";

/*
 * The publish records its ADDED changes in schedule_changes by one INSERT … SELECT after the UPDATE that publishes
 * them (recordingPublishedAdditions): the rows changeRowsOf computes for the same entries at the same instant, at
 * every notice edge; its schedule.published event carries their number and premiums.
 */

const MINUTE = 60_000;
const HOUR = 60 * MINUTE;
const DAY = 24 * HOUR;
const UUID_V7 = /^[0-9a-f]{8}-[0-9a-f]{4}-7[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/;
const wire = (ms: number) => new Date(ms).toISOString().replace(".000Z", "Z");
const dateOf = (ms: number) => new Date(ms).toISOString().slice(0, 10);
/** A dry run's totals as the publish's event carries them: its flat amounts, no projection. */
const recorded = ({ amountProjected: _, ...totals }: Record<string, unknown>) => totals;

async function placeWithPack(rulePack: string, timezone: string): Promise<SchedulePlace> {
  const p = await createSchedulePlace(timezone);
  const res = await api("PUT", `${p.base}/fair-workweek`, { token: p.org.adminToken, body: { rulePack } });
  expect(res.status, res.text).toBe(200);
  return p;
}

/** Notice from the publish instant (minutes; 14 days exactly first: it fixes the instant) and the entry's length. */
const EDGES: [notice: number, minutes: number][] = [
  [14 * DAY, 480],
  [14 * DAY - MINUTE, 480],
  [7 * DAY, 240],
  [7 * DAY - MINUTE, 241],
  [DAY, 241],
  [DAY - MINUTE, 240],
  [DAY - MINUTE, 241],
  [HOUR, 480],
  [-2 * HOUR, 480],
  [20 * DAY, 480],
];

describe("recordingPublishedAdditions: what a publish records, in SQL", () => {
  it.each([
    ["NYC_FAST_FOOD", "America/New_York"],
    ["SAN_FRANCISCO", "UTC"],
    ["SEATTLE", "Asia/Tokyo"],
  ])("%s (%s): the rows changeRowsOf computes for the same entries, at exactly 14 days, 7 days and 24 h", async (pack, zone) => {
    const p = await placeWithPack(pack, zone);
    // Wall-clock times 40 days ahead on the minute (no DST change within the 20 days they span in these zones).
    const base = Math.floor((Date.now() + 40 * DAY) / HOUR) * HOUR;
    const drafts = [];
    for (const [notice, minutes] of EDGES) {
      const worker = await addWorker(p);
      drafts.push(
        await createEntry(
          p,
          { employeeId: worker.id, startTime: wire(base + notice), endTime: wire(base + notice + minutes * MINUTE) },
          true,
        ),
      );
    }
    // Not recorded: a draft, and an entry published by another write (another instant).
    const stillDraft = await createEntry(p, { startTime: wire(base + 3 * DAY), endTime: wire(base + 3 * DAY + 8 * HOUR) }, true);
    const other = await addWorker(p);
    const publishedBefore = await createEntry(p, {
      employeeId: other.id,
      startTime: wire(base + 2 * DAY),
      endTime: wire(base + 2 * DAY + HOUR),
    });
    const db = createDatabase(tenantDb());
    const [first] = await db.select().from(scheduleEntries).where(eq(scheduleEntries.id, drafts[0]!.id));
    const at = new Date(first!.startAt.getTime() - 14 * DAY);
    const ids = drafts.map((d) => d.id as string);
    const inIds = sql`${scheduleEntries.id} IN (SELECT value FROM json_each(${JSON.stringify(ids)}))`;
    const entries = await db.select().from(scheduleEntries).where(inIds);
    const rules = (await changeRulesOfLocation(db, p.org.id, p.location.id, dateOf(at.getTime())))!;
    const expected = entries.flatMap((e) =>
      changeRowsOf(
        rules,
        {
          organizationId: p.org.id,
          locationId: p.location.id,
          scheduleEntryId: e.id,
          utcOffset: e.utcOffset,
          before: null,
          after: { employeeId: e.employeeId, start: e.startAt, end: e.endAt, published: true, deleted: false },
        },
        { initiatedBy: "EMPLOYER" },
        at,
      ),
    );
    // The edges are where they should be: 14 days and 20 days out of the window, the rest in it.
    expect(expected).toHaveLength(EDGES.length - 2);
    const before = newId(at.getTime());
    const range = { start: new Date(at.getTime() - DAY), end: new Date(at.getTime() + 30 * DAY) };
    const { statements } = recordingPublishedAdditions(db, p.org.id, p.location.id, [{ from: null, to: null, rules }], at, range);
    // The publish's own UPDATE, as POST …/schedules/publish sends it, at the instant `at`, then its INSERT … SELECT.
    await db.batch([
      db.update(scheduleEntries).set({ isDraft: false, publishedAt: at, updatedAt: at }).where(inIds),
      ...statements,
    ] as never);
    const after = newId(at.getTime());
    const recorded = await db
      .select()
      .from(scheduleChanges)
      .where(eq(scheduleChanges.locationId, p.location.id))
      .orderBy(asc(scheduleChanges.id));
    const withoutId = (rows: typeof recorded) =>
      rows.map(({ id: _, ...row }) => row).sort((a, b) => a.scheduleEntryId.localeCompare(b.scheduleEntryId));
    expect(withoutId(recorded)).toEqual(withoutId(expected));
    expect(recorded.some((r) => r.premiumRule !== null)).toBe(true);
    expect(recorded.map((r) => r.scheduleEntryId)).not.toContain(stillDraft.id);
    expect(recorded.map((r) => r.scheduleEntryId)).not.toContain(publishedBefore.id);
    // Ids: UUIDv7, unique, after every id made before and before every one made after, in start order (their
    // position), none made from its entry's id.
    for (const r of recorded) expect(r.id).toMatch(UUID_V7);
    expect(new Set(recorded.map((r) => r.id)).size).toBe(recorded.length);
    expect(recorded.every((r) => r.id > before && r.id < after)).toBe(true);
    for (const r of recorded) expect(r.id.slice(-12)).not.toBe(r.scheduleEntryId.slice(-12));
  });
});

describe("POST …/schedules/publish records what its dry run answers", () => {
  it("the same changes and premiums at several notices (under 7 days, 7 to 13, beyond 14)", async () => {
    const p = await placeWithPack("NYC_FAST_FOOD", "UTC");
    const now = Math.floor(Date.now() / HOUR) * HOUR;
    for (const [days, hours] of [
      [1, 4],
      [3, 8],
      [8, 6],
      [12, 8],
      [16, 8],
    ] as const) {
      const worker = await addWorker(p);
      await createEntry(
        p,
        { employeeId: worker.id, startTime: wire(now + days * DAY), endTime: wire(now + days * DAY + hours * HOUR) },
        true,
      );
    }
    const body = { startDate: dateOf(now), endDate: dateOf(now + 20 * DAY) };
    const dry = await api("POST", `${p.base}/schedules/publish`, { token: p.org.adminToken, body: { ...body, dryRun: true } });
    expect(dry.status, dry.text).toBe(200);
    const res = await api("POST", `${p.base}/schedules/publish`, { token: p.org.adminToken, body });
    expect(res.status, res.text).toBe(200);
    expect(res.body.publishedEntries).toBe(5);
    const listed = await api(
      "GET",
      `/api/organizations/${p.org.id}/schedule-changes?startDate=${body.startDate}&endDate=${body.endDate}&locationId=${p.location.id}`,
      { token: p.org.adminToken },
    );
    expect(listed.status).toBe(200);
    const shape = (c: Record<string, any>) => [c.scheduleEntryId, c.employeeId, c.kind, c.minutesAdded, c.entryDate, c.premium, c.rulePack];
    const bySchedule = (a: unknown[], b: unknown[]) => String(a[0]).localeCompare(String(b[0]));
    expect(listed.body.map(shape).sort(bySchedule)).toEqual(dry.body.changes.map(shape).sort(bySchedule));
    expect(listed.body).toHaveLength(4);
    expect(dry.body.totals).toEqual({ changes: 4, premiumHours: 0, premiumAmount: 50, amountProjected: false });
    // The publish's one event carries its changes: the dry run's totals.
    const events = (await api("GET", `/api/organizations/${p.org.id}/events?limit=500`, { token: p.org.adminToken })).body as {
      type: string;
      data: Record<string, unknown>;
    }[];
    expect(events.filter((e) => e.type === "schedule_change.recorded")).toEqual([]);
    expect(events.filter((e) => e.type === "schedule.published").map((e) => e.data)).toEqual([
      { locationId: p.location.id, ...body, publishedAt: res.body.publishedAt, ...recorded(dry.body.totals) },
    ]);
  });

  it("an applied assignment's new entry is ADDED too, with the drafts' changes, under the one summary event", async () => {
    const p = await placeWithPack("NYC_FAST_FOOD", "UTC");
    const now = Math.floor(Date.now() / HOUR) * HOUR;
    const draftWorker = await addWorker(p);
    const draft = await createEntry(
      p,
      { employeeId: draftWorker.id, startTime: wire(now + 3 * DAY), endTime: wire(now + 3 * DAY + 8 * HOUR) },
      true,
    );
    const assigned = await addWorker(p);
    const shift = await createOpenShift(p, {
      publish: false,
      startDate: wire(now + 2 * DAY),
      endDate: wire(now + 2 * DAY + 6 * HOUR),
      staffCountRequired: 1,
    });
    const preference = await api("POST", `${p.base}/open-shifts/${shift.id}/preferences`, {
      token: p.org.adminToken,
      body: { workerId: assigned.id, preference: "PREFERRED" },
    });
    expect(preference.status, preference.text).toBe(201);
    const assign = await api("POST", `${p.base}/open-shifts/${shift.id}/preferences/${preference.body.id}/assign`, {
      token: p.org.adminToken,
    });
    expect(assign.status, assign.text).toBe(200);
    const body = { startDate: dateOf(now), endDate: dateOf(now + 10 * DAY) };
    const dry = await api("POST", `${p.base}/schedules/publish`, { token: p.org.adminToken, body: { ...body, dryRun: true } });
    // NYC_FAST_FOOD: an addition with under 7 days' notice earns $15 (the dry run's figures are the rule's).
    expect(dry.body.totals).toEqual({ changes: 2, premiumHours: 0, premiumAmount: 30, amountProjected: false });
    const res = await api("POST", `${p.base}/schedules/publish`, { token: p.org.adminToken, body });
    expect(res.status, res.text).toBe(200);
    expect(res.body).toMatchObject({ publishedEntries: 1, appliedAssignments: 1 });
    const listed = await api("GET", `/api/organizations/${p.org.id}/schedule-changes?startDate=${body.startDate}&endDate=${body.endDate}`, {
      token: p.org.adminToken,
    });
    expect(listed.status).toBe(200);
    const shape = (c: Record<string, any>) => [c.employeeId, c.kind, c.minutesAdded, c.entryDate, c.premium];
    expect(listed.body.map(shape).sort()).toEqual(dry.body.changes.map(shape).sort());
    expect(listed.body.map((c: Record<string, any>) => c.employeeId).sort()).toEqual([draftWorker.id, assigned.id].sort());
    expect(listed.body.find((c: Record<string, any>) => c.employeeId === draftWorker.id).scheduleEntryId).toBe(draft.id);
    const events = (await api("GET", `/api/organizations/${p.org.id}/events?limit=500`, { token: p.org.adminToken })).body as {
      type: string;
      data: Record<string, unknown>;
    }[];
    expect(events.filter((e) => e.type === "schedule.published").map((e) => e.data)).toEqual([
      { locationId: p.location.id, ...body, publishedAt: res.body.publishedAt, ...recorded(dry.body.totals) },
    ]);
  });
});

describe("an entry's ADDED change stays its own", () => {
  it("a bulk copy of published entries that hold ADDED changes copies none of them", async () => {
    const p = await placeWithPack("NYC_FAST_FOOD", "UTC");
    const day = Math.floor(Date.now() / DAY) * DAY + 2 * DAY;
    const worker = await addWorker(p);
    await createEntry(p, { employeeId: worker.id, startTime: wire(day + 9 * HOUR), endTime: wire(day + 17 * HOUR) }, true);
    const week = { startDate: dateOf(day), endDate: dateOf(day) };
    expect((await api("POST", `${p.base}/schedules/publish`, { token: p.org.adminToken, body: week })).body.publishedEntries).toBe(1);
    const copied = await api("POST", `${p.base}/schedules/bulk-copy`, {
      token: p.org.adminToken,
      body: { fromStartDate: week.startDate, fromEndDate: week.endDate, toStartDate: dateOf(day + DAY) },
    });
    expect(copied.status, copied.text).toBe(200);
    expect(copied.body.created).toHaveLength(1);
    const listed = await api(
      "GET",
      `/api/organizations/${p.org.id}/schedule-changes?startDate=${week.startDate}&endDate=${dateOf(day + 7 * DAY)}`,
      { token: p.org.adminToken },
    );
    expect(listed.body.map((c: Record<string, any>) => [c.kind, c.entryDate])).toEqual([["ADDED", week.startDate]]);
  });
});

describe("the publish's schedule.published event counts every change it recorded", () => {
  it("an entry whose own offset puts it two local days after the location's date (UTC−12 location, +14:00 entry)", async () => {
    const p = await placeWithPack("NYC_FAST_FOOD", "Etc/GMT+12");
    const day = dateOf(Date.now() + 3 * DAY);
    // 23:00 on `day` at the location (UTC−12) is 11:00 UTC the next day and 01:00 two days later at +14:00, the
    // entry's own offset (its times are wall-clock times in it).
    const local = dateOf(Date.parse(`${day}T00:00:00Z`) + 2 * DAY);
    const draft = await createEntry(p, { startTime: `${local}T01:00:00Z`, endTime: `${local}T05:00:00Z`, utcOffset: 840 }, true);
    expect(draft.utcOffset).toBe(840);
    const body = { startDate: day, endDate: day };
    const dry = await api("POST", `${p.base}/schedules/publish`, { token: p.org.adminToken, body: { ...body, dryRun: true } });
    expect(dry.body.changes.map((c: Record<string, any>) => c.entryDate)).toEqual([local]);
    const res = await api("POST", `${p.base}/schedules/publish`, { token: p.org.adminToken, body });
    expect(res.body.publishedEntries).toBe(1);
    const events = (await api("GET", `/api/organizations/${p.org.id}/events?limit=500`, { token: p.org.adminToken })).body as {
      type: string;
      data: Record<string, unknown>;
    }[];
    expect(events.filter((e) => e.type === "schedule.published").map((e) => e.data)).toEqual([
      { locationId: p.location.id, ...body, publishedAt: res.body.publishedAt, ...recorded(dry.body.totals) },
    ]);
  });
});

describe("a publish prices each entry by the pack in effect on the entry's date (issue 44 item 6)", () => {
  it("NYC until yesterday, Seattle from today: a draft dated yesterday earns NYC's $15, one dated tomorrow Seattle's hour", async () => {
    const p = await createSchedulePlace("UTC");
    await setPackSince(p.org, p.location.id, "NYC_FAST_FOOD", "2020-01-01");
    // Changed today: effective from the location's today, so yesterday keeps NYC.
    const res = await api("PUT", `${p.base}/fair-workweek`, { token: p.org.adminToken, body: { rulePack: "SEATTLE" } });
    expect(res.status, res.text).toBe(200);
    const yesterday = dateOf(Date.now() - DAY);
    const tomorrow = dateOf(Date.now() + DAY);
    const before = await createEntry(p, { startTime: `${yesterday}T09:00:00Z`, endTime: `${yesterday}T17:00:00Z` }, true);
    const worker = await addWorker(p);
    const after = await createEntry(
      p,
      { employeeId: worker.id, startTime: `${tomorrow}T09:00:00Z`, endTime: `${tomorrow}T17:00:00Z` },
      true,
    );
    const body = { startDate: yesterday, endDate: tomorrow };
    const dry = await api("POST", `${p.base}/schedules/publish`, { token: p.org.adminToken, body: { ...body, dryRun: true } });
    expect(dry.status, dry.text).toBe(200);
    const published = await api("POST", `${p.base}/schedules/publish`, { token: p.org.adminToken, body });
    expect(published.status, published.text).toBe(200);
    expect(published.body.publishedEntries).toBe(2);
    const listed = await api("GET", `/api/organizations/${p.org.id}/schedule-changes?startDate=${yesterday}&endDate=${tomorrow}`, {
      token: p.org.adminToken,
    });
    const byEntry = (c: Record<string, any>) => [
      c.scheduleEntryId,
      c.entryDate,
      c.rulePack,
      c.premium?.hours ?? null,
      c.premium?.amount ?? null,
    ];
    // Yesterday (notice 0, under 7 days): NYC's flat $15 (NYC Admin. Code 20-1222(a)(1)); tomorrow (notice under 14
    // days): Seattle's one hour at the regular rate (SMC 14.22.050), no flat amount.
    const expected = [
      [before.id, yesterday, "NYC_FAST_FOOD", null, 15],
      [after.id, tomorrow, "SEATTLE", 1, null],
    ];
    expect(listed.body.map(byEntry)).toEqual(expected);
    expect(dry.body.changes.map(byEntry).sort((a: string[], b: string[]) => a[1]!.localeCompare(b[1]!))).toEqual(expected);
    // One change of each pack: 1 premium hour and $15 in total; the dry run prices the hour too (projected), the
    // publish's event carries the flat amounts.
    expect(dry.body.totals).toMatchObject({ changes: 2, premiumHours: 1, amountProjected: true });
    const events = (await api("GET", `/api/organizations/${p.org.id}/events?limit=500`, { token: p.org.adminToken })).body as {
      type: string;
      data: Record<string, unknown>;
    }[];
    expect(events.filter((e) => e.type === "schedule.published").map((e) => e.data)).toEqual([
      { locationId: p.location.id, ...body, publishedAt: published.body.publishedAt, changes: 2, premiumHours: 1, premiumAmount: 15 },
    ]);
  });
});
