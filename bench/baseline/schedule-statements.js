// The SQL our Worker sends for the schedules scenario (copied from its trace: when src/ changes these queries, paste
// the printed SQL here), with the bound values of each request in drizzle's order.

export const LOCATION_SQL =
  'select "id", "organization_id", "name", "website", "country", "state", "city", "address_line1", "address_line2", "zip_code", "external_id", "longitude", "latitude", "clock_in_distance_centimeters", "clock_out_distance_centimeters", "break_start_distance_centimeters", "break_end_distance_centimeters", "timezone", "geofence_mode", "active", "created_at", "updated_at", "deleted_at" from "locations" where (("locations"."organization_id" = ? and "locations"."deleted_at" is null) and "locations"."id" = ?)';
export const OWN_LOCATIONS_SQL =
  'select "location_ids" from "staff_members" where (("staff_members"."organization_id" = ? and "staff_members"."deleted_at" is null) and "staff_members"."id" = ?)';
const ENTRY_COLUMNS =
  '"id", "organization_id", "location_id", "employee_id", "role_id", "start_at", "end_at", "utc_offset", "timezone", "breaks", "note", "is_draft", "published_at", "open_shift_id", "active", "created_at", "updated_at", "deleted_at"';
export const FIRST_PAGE_SQL = `select ${ENTRY_COLUMNS} from "schedule_entries" where ("schedule_entries"."organization_id" = ? and "schedule_entries"."location_id" = ? and "schedule_entries"."is_draft" = ? and ("schedule_entries"."start_at" >= ? and "schedule_entries"."start_at" < ?) and "schedule_entries"."deleted_at" is null) order by "schedule_entries"."start_at" asc, "schedule_entries"."id" asc limit ?`;
export const NEXT_PAGE_SQL = `select ${ENTRY_COLUMNS} from "schedule_entries" where ("schedule_entries"."organization_id" = ? and "schedule_entries"."location_id" = ? and "schedule_entries"."is_draft" = ? and "schedule_entries"."start_at" < ? and (("schedule_entries"."start_at", "schedule_entries"."id") > (?, ?) and "schedule_entries"."deleted_at" is null)) order by "schedule_entries"."start_at" asc, "schedule_entries"."id" asc limit ?`;
const DRAFT_OPEN_SHIFTS =
  '"open_shifts" where (("open_shifts"."organization_id" = ? and "open_shifts"."deleted_at" is null) and "open_shifts"."location_id" = ? and "open_shifts"."is_draft" = ? and "open_shifts"."start_at" >= ? and "open_shifts"."start_at" < ?)';
export const PUBLISH_OPEN_SHIFTS_SQL = `select "id", "organization_id", "location_id", "role_id", "start_at", "end_at", "utc_offset", "timezone", "breaks", "staff_count_required", "require_approval", "is_draft", "published_at", "active", "created_at", "updated_at", "deleted_at" from ${DRAFT_OPEN_SHIFTS}`;
export const PUBLISH_ASSIGNMENTS_SQL = `select "id", "organization_id", "open_shift_id", "worker_id", "preference", "status", "is_draft", "schedule_shift_id", "assigned_at", "active", "created_at", "updated_at", "deleted_at" from "open_shift_preferences" where ("open_shift_preferences"."open_shift_id" in (select "id" from ${DRAFT_OPEN_SHIFTS}) and "open_shift_preferences"."is_draft" = ? and "open_shift_preferences"."status" = ? and "open_shift_preferences"."deleted_at" is null)`;
export const PUBLISH_ENTRIES_SQL =
  'update "schedule_entries" set "is_draft" = ?, "published_at" = ?, "updated_at" = ? where (("schedule_entries"."organization_id" = ? and "schedule_entries"."deleted_at" is null) and "schedule_entries"."location_id" = ? and "schedule_entries"."is_draft" = ? and "schedule_entries"."start_at" >= ? and "schedule_entries"."start_at" < ?)';
export const PUBLISH_OPEN_SHIFTS_UPDATE_SQL =
  'update "open_shifts" set "is_draft" = ?, "published_at" = ?, "updated_at" = ? where ("open_shifts"."id" IN (SELECT value FROM json_each(?)) and "open_shifts"."is_draft" = ? and "open_shifts"."deleted_at" is null)';

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
 * principal guard opening the write batch (write-guard.js: writeGuardFor the request's token).
 */
export function publishTrips(organizationId, locationId, week, timeZone, now = "<now>", guard = { sql: "", params: [] }) {
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
      ],
    },
    {
      call: "batch",
      pairs: [
        [guard.sql, guard.params],
        [PUBLISH_ENTRIES_SQL, [0, now, now, ...drafts]],
        [PUBLISH_OPEN_SHIFTS_UPDATE_SQL, [0, now, now, "[]", 1]],
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
