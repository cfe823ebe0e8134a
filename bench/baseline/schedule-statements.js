// The SQL our Worker sends for the schedules scenario, with the bound values of each request in drizzle's order, from
// this run's recording of ours (recording.js): the week view's reads, and the publish's round trips with their event
// and wake read (the principal guard from write-guard.js).
import { fromRecording, statement, trip } from "./recording.js";

/** The location and the caller's own locations [organizationId, locationId], [organizationId, staff member or '']. */
export let LOCATION_SQL;
export let OWN_LOCATIONS_SQL;
/**
 * A week view page, published entries between two instants in start order: the first [org, location, 0, start, end,
 * limit + 1], after a cursor [org, location, 0, end, cursor's start, cursor's id, limit + 1]. Read positionally.
 */
export let FIRST_PAGE_SQL;
export let NEXT_PAGE_SQL;
/** The position of each column a page reads ({id: 0, organization_id: 1, …}), from the recorded SQL. */
export const ENTRY_COLUMN = {};

/** The column names of a recorded `select "a", "b", … from`. */
const selectedColumns = (sql) => [...sql.slice(0, sql.indexOf(" from ")).matchAll(/"(\w+)"/g)].map((m) => m[1]);

fromRecording(["week view", "week view, next page"], (r) => {
  [LOCATION_SQL, OWN_LOCATIONS_SQL] = trip(r, "week view", 0, 2);
  trip(r, "week view", 1, 1);
  FIRST_PAGE_SQL = statement(r, "week view", 1, 0, 'select "id"');
  trip(r, "week view, next page", 1, 1);
  NEXT_PAGE_SQL = statement(r, "week view, next page", 1, 0, 'select "id"');
  const columns = selectedColumns(FIRST_PAGE_SQL);
  if (columns.join() !== selectedColumns(NEXT_PAGE_SQL).join()) throw new Error("recording: the week view's pages read other columns");
  for (const key of Object.keys(ENTRY_COLUMN)) delete ENTRY_COLUMN[key];
  columns.forEach((name, i) => {
    ENTRY_COLUMN[name] = i;
  });
});

/** The bound values of the publish's held-back test: ignore_availability 0, and the longest occurrence (7 days and an hour) in ms. */
const HELD_BACK_PARAMS = [0, 7 * 86_400_000 + 3_600_000];

/**
 * The publish of a week without a Fair Workweek or working-time pack, from the recording (outbox kept): its location
 * reads, its read batch (draft open shifts, their approved assignments, the drafts it would record as ADDED changes,
 * the location's Fair Workweek settings, its working-time setting: with a pack ours would judge the drafts in two
 * more round trips, which the bench's location has none of) and its write batch (the principal guard, the entries' and open shifts' updates, the drafts
 * held back, schedule.published with its audit entry, and the outbox's wake read).
 */
const PUBLISH = {};

fromRecording(["publish"], (r) => {
  [PUBLISH.location, PUBLISH.ownLocations] = trip(r, "publish", 0, 2);
  trip(r, "publish", 1, 5);
  PUBLISH.openShifts = statement(r, "publish", 1, 0, "select");
  PUBLISH.assignments = statement(r, "publish", 1, 1, "select");
  PUBLISH.added = statement(r, "publish", 1, 2, "select");
  PUBLISH.fairWorkweek = statement(r, "publish", 1, 3, "select");
  PUBLISH.workingTime = statement(r, "publish", 1, 4, 'select "location_id", "organization_id", "rule_pack"');
  trip(r, "publish", 2, 7);
  PUBLISH.entries = statement(r, "publish", 2, 1, 'update "schedule_entries"');
  PUBLISH.openShiftsUpdate = statement(r, "publish", 2, 2, 'update "open_shifts"');
  PUBLISH.skipped = statement(r, "publish", 2, 3, "select");
  PUBLISH.event = statement(r, "publish", 2, 4, 'insert into "events"');
  PUBLISH.audit = statement(r, "publish", 2, 5, 'insert into "audit_log"');
  PUBLISH.wake = statement(r, "publish", 2, 6, 'select "id", "organization_id" from "webhooks"');
});

const offsetFormatters = new Map();
/** Minutes east of UTC in a zone at an instant. */
function offsetAt(timeZone, ms) {
  let f = offsetFormatters.get(timeZone);
  if (!f) offsetFormatters.set(timeZone, (f = new Intl.DateTimeFormat("en-US", { timeZone, timeZoneName: "longOffset" })));
  const m = /GMT([+-])(\d{2}):(\d{2})/.exec(f.format(ms));
  return m ? (m[1] === "-" ? -1 : 1) * (Number(m[2]) * 60 + Number(m[3])) : 0;
}

/** The first instant of a local date (the scenario's zone changes offset at 02:00, never at midnight). */
export function startOfDay(date, timeZone) {
  const naive = Date.parse(`${date}T00:00:00Z`);
  return naive - offsetAt(timeZone, naive - offsetAt(timeZone, naive) * 60_000) * 60_000;
}

export const dayAfter = (date) => new Date(Date.parse(date) + 86_400_000).toISOString().slice(0, 10);

/** [start, end) of the local dates startDate..endDate (inclusive). */
export const weekRange = (week, timeZone) => ({
  start: startOfDay(week.startDate, timeZone),
  end: startOfDay(dayAfter(week.endDate), timeZone),
});

export function decodeEntryCursor(cursor) {
  const [ms, id] = atob(cursor).split(/_(.*)/s);
  return { startAt: Number(ms), id };
}

export const encodeEntryCursor = (startAt, id) => btoa(`${startAt}_${id}`).replaceAll("=", "");

const TIME_ZONE = "America/New_York";

/** The round trips of a published week view page, as ours sends them (url: the page's URL). */
export function weekViewTrips(url, organizationId, locationId) {
  const q = url.searchParams;
  const range = weekRange({ startDate: q.get("startDate"), endDate: q.get("endDate") }, TIME_ZONE);
  const limit = Number(q.get("limit") ?? 100) + 1;
  const cursor = q.get("cursor");
  const after = cursor ? decodeEntryCursor(cursor) : null;
  const page = after
    ? [NEXT_PAGE_SQL, [organizationId, locationId, 0, range.end, after.startAt, after.id, limit]]
    : [FIRST_PAGE_SQL, [organizationId, locationId, 0, range.start, range.end, limit]];
  return [
    {
      call: "batch",
      pairs: [
        [LOCATION_SQL, [organizationId, locationId]],
        [OWN_LOCATIONS_SQL, [organizationId, ""]],
      ],
    },
    { call: "raw", pairs: [page] },
  ];
}

/**
 * The round trips of a publish of `week` with no draft open shifts; `now` is the publish instant, `guard` the
 * principal guard opening the write batch (write-guard.js: writeGuardFor the request's token), `event` the id and
 * data of its schedule.published event (the bench masks both: the id is random, the data names the instant),
 * `ipCountry` the caller's country its audit entry records (masked too).
 */
export function publishTrips(
  organizationId,
  locationId,
  week,
  timeZone,
  now = "<now>",
  guard = { sql: "", params: [] },
  event = { id: "<event id>", data: "<event data>" },
  ipCountry = "<country>",
) {
  const { start, end } = weekRange(week, timeZone);
  const drafts = [organizationId, locationId, 1, start, end];
  return [
    {
      call: "batch",
      pairs: [
        [PUBLISH.location, [organizationId, locationId]],
        [PUBLISH.ownLocations, [organizationId, ""]],
      ],
    },
    {
      call: "batch",
      pairs: [
        [PUBLISH.openShifts, drafts],
        [PUBLISH.assignments, [...drafts, 1, "APPROVED"]],
        // A publish reads no ADDED drafts (its write records them): the statement's own condition is false.
        [PUBLISH.added, [...drafts, ...HELD_BACK_PARAMS]],
        [PUBLISH.fairWorkweek, [organizationId, locationId]],
        [PUBLISH.workingTime, [organizationId, locationId]],
      ],
    },
    {
      call: "batch",
      pairs: [
        [guard.sql, guard.params],
        // The organization first: the frozen dates' guard on start_at.
        [PUBLISH.entries, [organizationId, 0, now, now, ...drafts, ...HELD_BACK_PARAMS]],
        [PUBLISH.openShiftsUpdate, ["[]", 0, now, now, "[]", 1]],
        [PUBLISH.skipped, [...drafts, ...HELD_BACK_PARAMS]],
        [
          PUBLISH.event,
          [
            ...[event.id, organizationId, organizationId, "schedule.published", now, event.data],
            // The event's location, range and instant, then "something was published here" twice (entries, open shifts).
            ...[locationId, week.startDate, week.endDate, typeof now === "number" ? new Date(now).toISOString() : now],
            ...[organizationId, locationId, 0, now, organizationId, locationId, 0, now],
          ],
        ],
        // The event's audit entry (src/data/audit/audit-entries.ts): the actor, the operation, the caller's country, the event.
        [PUBLISH.audit, [...(guard.actor ?? []), null, "publishSchedule", ipCountry, JSON.stringify([event.id])]],
        [PUBLISH.wake, [organizationId, 1]],
      ],
    },
  ];
}

export const resetDraftsStatement = (locationId, week) => {
  const { start, end } = weekRange(week, TIME_ZONE);
  return {
    sql: "UPDATE schedule_entries SET is_draft = 1, published_at = NULL WHERE location_id = ? AND start_at >= ? AND start_at < ?",
    params: [locationId, start, end],
  };
};
