// The SQL our Worker sends for the schedules scenario, with the bound values of each request in drizzle's order. The
// week view's reads come from this run's recording of ours (recording.js); the publish's are still copied from a
// trace (when src/ changes them, paste the printed SQL here), its principal guard recorded (write-guard.js).
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

const DRAFT_OPEN_SHIFTS =
  '"open_shifts" where (("open_shifts"."organization_id" = ? and "open_shifts"."deleted_at" is null) and "open_shifts"."location_id" = ? and "open_shifts"."is_draft" = ? and "open_shifts"."start_at" >= ? and "open_shifts"."start_at" < ?)';
export const PUBLISH_OPEN_SHIFTS_SQL = `select "id", "organization_id", "location_id", "role_id", "start_at", "end_at", "utc_offset", "timezone", "breaks", "staff_count_required", "require_approval", "is_draft", "published_at", "active", "created_at", "updated_at", "deleted_at" from ${DRAFT_OPEN_SHIFTS}`;
export const PUBLISH_ASSIGNMENTS_SQL = `select "id", "organization_id", "open_shift_id", "worker_id", "preference", "status", "is_draft", "schedule_shift_id", "assigned_at", "active", "created_at", "updated_at", "deleted_at" from "open_shift_preferences" where ("open_shift_preferences"."open_shift_id" in (select "id" from ${DRAFT_OPEN_SHIFTS}) and "open_shift_preferences"."is_draft" = ? and "open_shift_preferences"."status" = ? and "open_shift_preferences"."deleted_at" is null)`;
const DRAFT_ENTRIES =
  '("schedule_entries"."organization_id" = ? and "schedule_entries"."deleted_at" is null) and "schedule_entries"."location_id" = ? and "schedule_entries"."is_draft" = ? and "schedule_entries"."start_at" >= ? and "schedule_entries"."start_at" < ?';
const ON_TIME_OFF = `EXISTS (SELECT 1 FROM time_off_requests WHERE worker_id = "schedule_entries"."employee_id"
    AND status = 'approved' AND deleted_at IS NULL AND start_at < "schedule_entries"."end_at" AND end_at > "schedule_entries"."start_at")`;
const UNAVAILABLE = `EXISTS (SELECT 1 FROM availability_occurrences o
    WHERE o.employee_id = "schedule_entries"."employee_id" AND o.start_at < "schedule_entries"."end_at"
    AND o.start_at > "schedule_entries"."start_at" - ? AND o.end_at > "schedule_entries"."start_at"
    AND o.type = 'UNAVAILABLE' AND o.organization_id = "schedule_entries"."organization_id")`;
/** On approved time off, or on an UNAVAILABLE occurrence without the draft's ignoreAvailability (bound: 0, then the longest occurrence). */
const HELD_BACK = `(${ON_TIME_OFF} or ("schedule_entries"."ignore_availability" = ? and ${UNAVAILABLE}))`;
/** The bound values of HELD_BACK: ignore_availability 0, and the longest occurrence (7 days and an hour) in ms. */
const HELD_BACK_PARAMS = [0, 7 * 86_400_000 + 3_600_000];
/** Draft entries of the range not held back (those stay drafts and are reported). */
export const PUBLISH_ENTRIES_SQL = `update "schedule_entries" set "is_draft" = ?, "published_at" = ?, "updated_at" = ? where ((${DRAFT_ENTRIES}) and not ${HELD_BACK})`;
/** The draft open shifts, guarded: role_id NULL (failing the batch) if one gained an assignment the publish did not read. */
export const PUBLISH_OPEN_SHIFTS_UPDATE_SQL = `update "open_shifts" set "role_id" = (SELECT "open_shifts"."role_id" WHERE NOT EXISTS (SELECT 1 FROM open_shift_preferences
    WHERE open_shift_id = "open_shifts"."id" AND is_draft = 1 AND status = 'APPROVED' AND deleted_at IS NULL
    AND id NOT IN (SELECT value FROM json_each(?)))), "is_draft" = ?, "published_at" = ?, "updated_at" = ? where ("open_shifts"."id" IN (SELECT value FROM json_each(?)) and "open_shifts"."is_draft" = ? and "open_shifts"."deleted_at" is null)`;
/** The drafts left behind (on time off, or unavailable), read after the update in the same batch, with the reason. */
export const SKIPPED_ENTRIES_SQL = `select "id", "employee_id", "start_at", "end_at", "utc_offset", CASE WHEN ${ON_TIME_OFF} THEN 'TIME_OFF_CONFLICT' ELSE 'WORKER_UNAVAILABLE' END as "reason" from "schedule_entries" where ((${DRAFT_ENTRIES}) and "schedule_entries"."deleted_at" is null and ${HELD_BACK}) order by "schedule_entries"."id"`;
const PUBLISHED_HERE = (table) =>
  `exists (select "id" from "${table}" where (("${table}"."organization_id" = ? and "${table}"."deleted_at" is null) and "${table}"."location_id" = ? and "${table}"."is_draft" = ? and "${table}"."published_at" = ?))`;
/** Fair Workweek: a location's rule pack (or none), in the publish's read batch. */
const PACK_HERE = `f.location_id = ? AND f.organization_id = ?
    AND f.rule_pack IS NOT NULL`;
/** The pack's notice window in days: the override, else the pack's (src/domain's bands, 14 for every pack). */
const NOTICE_DAYS = `coalesce(json_extract(f.overrides, '$.noticeDays'), CASE f.rule_pack WHEN 'NYC_FAST_FOOD' THEN 14 WHEN 'SEATTLE' THEN 14 WHEN 'SAN_FRANCISCO' THEN 14 WHEN 'OREGON' THEN 14 WHEN 'LOS_ANGELES' THEN 14 WHEN 'CHICAGO' THEN 14 WHEN 'PHILADELPHIA' THEN 14 WHEN 'EVANSTON' THEN 14 WHEN 'BERKELEY' THEN 14 WHEN 'EMERYVILLE' THEN 14 WHEN 'CUSTOM' THEN 14 END)`;
/**
 * The drafts the publish would record as ADDED changes: inside the pack's notice window at a location with a pack and
 * not held back (bound: drafts, location and organization, now, location and organization, then HELD_BACK's).
 */
export const PUBLISH_ADDED_SQL = `select "id", "employee_id", "start_at", "end_at", "utc_offset" from "schedule_entries" where ((${DRAFT_ENTRIES}) and (EXISTS (SELECT 1 FROM location_fair_workweek f WHERE ${PACK_HERE}) AND "schedule_entries"."start_at" < (SELECT ? + ${NOTICE_DAYS} * 86400000
    FROM location_fair_workweek f WHERE ${PACK_HERE})) and "schedule_entries"."deleted_at" is null and not ${HELD_BACK} and 0)`;
/** The location's Fair Workweek settings: [organizationId, locationId]. */
export const FAIR_WORKWEEK_SQL = `select "location_id", "organization_id", "rule_pack", "overrides", "created_at", "updated_at" from "location_fair_workweek" where ("location_fair_workweek"."organization_id" = ? and "location_fair_workweek"."location_id" = ?)`;
/** schedule.published, recorded only if the publish published something. */
export const PUBLISHED_EVENT_SQL = `insert into "events" ("id", "organization_id", "sequence", "type", "occurred_at", "form", "data") SELECT ?, ?, coalesce((SELECT max(sequence) FROM events WHERE organization_id = ?), 0) + 1, ?, ?, 'wire', ? WHERE (${PUBLISHED_HERE("schedule_entries")} or ${PUBLISHED_HERE("open_shifts")})`;
/** The outbox's wake read: webhooks with events past what they delivered. */
export const WAKE_SQL = `select "id", "organization_id" from "webhooks" where ("webhooks"."organization_id" = ? and "webhooks"."deleted_at" is null and "webhooks"."enabled" = ? and EXISTS (SELECT 1 FROM events e WHERE e.organization_id = "webhooks"."organization_id" AND e.sequence > "webhooks"."delivered_sequence"
    AND ("webhooks"."types" = '[]' OR e.type IN (SELECT value FROM json_each("webhooks"."types")))))`;

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
 * data of its schedule.published event (the bench masks both: the id is random, the data names the instant).
 */
export function publishTrips(
  organizationId,
  locationId,
  week,
  timeZone,
  now = "<now>",
  guard = { sql: "", params: [] },
  event = { id: "<event id>", data: "<event data>" },
) {
  const { start, end } = weekRange(week, timeZone);
  const drafts = [organizationId, locationId, 1, start, end];
  return [
    {
      call: "batch",
      pairs: [
        [LOCATION_SQL, [organizationId, locationId]],
        [OWN_LOCATIONS_SQL, [organizationId, ""]],
      ],
    },
    {
      call: "batch",
      pairs: [
        [PUBLISH_OPEN_SHIFTS_SQL, drafts],
        [PUBLISH_ASSIGNMENTS_SQL, [...drafts, 1, "APPROVED"]],
        [PUBLISH_ADDED_SQL, [...drafts, locationId, organizationId, now, locationId, organizationId, ...HELD_BACK_PARAMS]],
        [FAIR_WORKWEEK_SQL, [organizationId, locationId]],
      ],
    },
    {
      call: "batch",
      pairs: [
        [guard.sql, guard.params],
        [PUBLISH_ENTRIES_SQL, [0, now, now, ...drafts, ...HELD_BACK_PARAMS]],
        [PUBLISH_OPEN_SHIFTS_UPDATE_SQL, ["[]", 0, now, now, "[]", 1]],
        [SKIPPED_ENTRIES_SQL, [...drafts, ...HELD_BACK_PARAMS]],
        [
          PUBLISHED_EVENT_SQL,
          [event.id, organizationId, organizationId, "schedule.published", now, event.data, organizationId, locationId, 0, now].concat([
            organizationId,
            locationId,
            0,
            now,
          ]),
        ],
        [WAKE_SQL, [organizationId, 1]],
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
