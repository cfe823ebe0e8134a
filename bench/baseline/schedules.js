// Baseline schedules: the published week view page and the publish of a week, sending our Worker's statements
// (schedule-statements.js) in the same round trips with the same bound values, by hand: no framework, no
// validation, no authentication. The range is read in the location's zone, as ours does.
import { ENTRY_COLUMN, encodeEntryCursor, publishTrips, weekViewTrips } from "./schedule-statements.js";
import { writeGuard } from "./write-guard.js";

const base = /^\/api\/organizations\/([^/]+)\/locations\/([^/]+)\/schedules/;
const iso = (ms) => new Date(ms).toISOString();
const wall = (ms, offset) => new Date(ms + offset * 60_000).toISOString();

const bind = (db, [sql, values]) => db.prepare(sql).bind(...values);

/** A schedule_entries row in positional form (its columns as recorded: ENTRY_COLUMN), as ours answers it. */
function entryJson(v) {
  const c = ENTRY_COLUMN;
  const [id, organizationId, locationId, employeeId, roleId, startAt, endAt, utcOffset, timezone, breaks, note] = [
    v[c.id],
    v[c.organization_id],
    v[c.location_id],
    v[c.employee_id],
    v[c.role_id],
    v[c.start_at],
    v[c.end_at],
    v[c.utc_offset],
    v[c.timezone],
    v[c.breaks],
    v[c.note],
  ];
  const [isDraft, publishedAt, openShiftId, active, createdAt, updatedAt, deletedAt] = [
    v[c.is_draft],
    v[c.published_at],
    v[c.open_shift_id],
    v[c.active],
    v[c.created_at],
    v[c.updated_at],
    v[c.deleted_at],
  ];
  return {
    id,
    organizationId,
    locationId,
    employeeId,
    roleId,
    startTime: wall(startAt, utcOffset),
    endTime: wall(endAt, utcOffset),
    utcStartTime: iso(startAt),
    utcEndTime: iso(endAt),
    utcOffset,
    timezone,
    breaks: JSON.parse(breaks),
    note,
    isDraft: isDraft === 1,
    isPublished: isDraft !== 1,
    publishedAt: publishedAt === null ? null : iso(publishedAt),
    openShiftId,
    // The working-time violations the entry's last write overrode (a JSON column), null without one.
    workingTimeOverride: v[c.working_time_override] == null ? null : JSON.parse(v[c.working_time_override]),
    active: active === 1,
    createdAt: iso(createdAt),
    updatedAt: iso(updatedAt),
    deletedAt: deletedAt === null ? null : iso(deletedAt),
  };
}

async function weekView(db, match, request) {
  const url = new URL(request.url);
  const [organizationId, locationId] = [match[1], match[2]];
  const [locationTrip, pageTrip] = weekViewTrips(url, organizationId, locationId);
  const [location] = await db.batch(locationTrip.pairs.map((pair) => bind(db, pair)));
  if (location.results.length === 0) return Response.json({ status: 404 }, { status: 404 });
  const rows = await bind(db, pageTrip.pairs[0]).raw();
  const limit = Number(url.searchParams.get("limit") ?? 100);
  const headers = {};
  const page = rows.slice(0, limit);
  if (rows.length > limit) {
    const last = page[page.length - 1];
    const next = new URL(url);
    next.searchParams.set("cursor", encodeEntryCursor(last[ENTRY_COLUMN.start_at], last[ENTRY_COLUMN.id]));
    headers.Link = `<${next.pathname}${next.search}>; rel="next"`;
  }
  return Response.json(page.map(entryJson), { headers });
}

async function publish(db, match, request) {
  const [organizationId, locationId] = [match[1], match[2]];
  const week = await request.json();
  const [location] = await db.batch(publishTrips(organizationId, locationId, week, "UTC")[0].pairs.map((pair) => bind(db, pair)));
  const timeZone = location.results[0]?.timezone;
  if (!timeZone) return Response.json({ status: 404 }, { status: 404 });
  const now = Date.now();
  const event = { id: crypto.randomUUID(), data: JSON.stringify({ locationId, ...week, publishedAt: iso(now) }) };
  // The caller's country as ours reads it (src/platform/middleware/database.ts): both Workers sit behind the same door.
  const country = request.cf?.country;
  const ipCountry = typeof country === "string" && /^[A-Z0-9]{2}$/.test(country) ? country : null;
  const [, reads, writes] = publishTrips(organizationId, locationId, week, timeZone, now, writeGuard(request), event, ipCountry);
  const read = await db.batch(reads.pairs.map((pair) => bind(db, pair)));
  // With a working-time pack ours judges the drafts in two more round trips, which the recording does not hold.
  if (read[4].results[0]?.rule_pack) throw new Error("baseline publish: the location has a working-time pack, the recording judges none");
  const [, entries, shifts, skipped] = await db.batch(writes.pairs.map((pair) => bind(db, pair)));
  return Response.json({
    publishedEntries: entries.meta.changes,
    publishedOpenShifts: shifts.meta.changes,
    appliedAssignments: 0,
    publishedAt: iso(now),
    skipped: skipped.results.map((e) => ({
      id: e.id,
      employeeId: e.employee_id,
      startTime: wall(e.start_at, e.utc_offset),
      endTime: wall(e.end_at, e.utc_offset),
      reason: e.reason,
    })),
    withheldOpenShifts: [],
  });
}

export const routes = [
  { method: "GET", pattern: new RegExp(`${base.source}$`), handle: weekView },
  { method: "POST", pattern: new RegExp(`${base.source}/publish$`), handle: publish },
];
