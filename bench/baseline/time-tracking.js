// Baseline clock-in, clock-out and shift-state: the same D1 statements and round trips as our Worker, written by hand
// with no framework, no validation, no authorisation and no trust flags. What is left is the floor: parsing the
// request, the D1 batches, the least arithmetic that gives a correct answer, and JSON out.
import { CLOCK_IN_WRITES, CLOCK_OUT_WRITES, PUNCH_READS, SHIFT_STATE_READS } from "./statements.js";

const DAY_MS = 86_400_000;
const utcDate = (ms) => new Date(ms).toISOString().slice(0, 10);
const json = (body, status = 200) => Response.json(body, { status });
const problem = (status, code) => json({ status, code }, status);

const formatters = new Map();
/** Minutes east of UTC in an IANA zone at an instant. */
function offsetMinutesAt(timeZone, ms) {
  let f = formatters.get(timeZone);
  if (!f) {
    f = new Intl.DateTimeFormat("en-US", { timeZone, hourCycle: "h23", year: "numeric", month: "2-digit", day: "2-digit", hour: "2-digit", minute: "2-digit", second: "2-digit" });
    formatters.set(timeZone, f);
  }
  const p = {};
  for (const part of f.formatToParts(new Date(ms))) p[part.type] = Number(part.value);
  return Math.round((Date.UTC(p.year, p.month - 1, p.day, p.hour, p.minute, p.second) - Math.floor(ms / 1000) * 1000) / 60_000);
}
const businessDate = (ms, offset) => utcDate(ms + offset * 60_000);

function run(db, statements, params) {
  return db.batch(statements.map((sql, i) => db.prepare(sql).bind(...params[i])));
}

/** The one read batch of a punch (8 statements, one round trip). */
async function punchContext(db, { org, staffId, locationId, roleId, now }) {
  const lockFrom = utcDate(now - DAY_MS);
  const lockTo = utcDate(now + DAY_MS);
  const [staff, location, role, openShift, breaks, lastEvent, breakTypes, locked] = await run(db, PUNCH_READS, [
    [org, staffId],
    [org, locationId],
    [org, roleId ?? ""],
    [org, staffId],
    [org, staffId],
    [org, staffId, 1],
    [org, locationId],
    [org, locationId, lockFrom, lockTo, org, staffId],
  ]);
  return {
    staff: staff.results[0],
    location: location.results[0],
    role: role.results[0],
    openShift: openShift.results[0],
    breaks: breaks.results,
    lastEvent: lastEvent.results[0],
    breakTypes: breakTypes.results,
    lockedDates: new Set(locked.results.map((r) => r.date)),
  };
}

const wall = (ms, offset) => (ms === null ? null : new Date(ms + offset * 60_000).toISOString());
const shiftJson = (s, breaks, events) => ({
  id: s.id,
  employeeId: s.employee_id,
  locationId: s.location_id,
  roleId: s.role_id,
  startTime: wall(s.start_at, s.utc_offset),
  endTime: wall(s.end_at, s.utc_offset),
  breaks: breaks.map((b) => ({ startTime: wall(b.start_at, s.utc_offset), endTime: wall(b.end_at, s.utc_offset), typeId: b.type_id, paid: !!b.paid, name: b.name })),
  hourlyWage: s.hourly_wage,
  totalPaidBreaks: s.total_paid_breaks,
  totalUnpaidBreaks: s.total_unpaid_breaks,
  duration: s.duration,
  payableDuration: s.payable_duration,
  utcOffset: s.utc_offset,
  utcStartTime: new Date(s.start_at).toISOString(),
  utcEndTime: s.end_at === null ? null : new Date(s.end_at).toISOString(),
  locked: false,
  active: s.end_at === null,
  flags: JSON.parse(s.flags),
  manualEntry: !!s.manual_entry,
  businessDate: s.business_date,
  ...(events ? { events } : {}),
  createdAt: new Date(s.created_at).toISOString(),
  updatedAt: new Date(s.updated_at).toISOString(),
  deletedAt: null,
});

/** [id, organization_id, shift_id, employee_id, kind, break_id, occurred_at, received_at, lat, lon, accuracy, distance, verdict, flags, idempotency_key] */
const eventValues = (ctx, shiftId, kind, now, body) => [
  crypto.randomUUID(), ctx.location.organization_id, shiftId, ctx.staff.id, kind, "", now, now,
  body.latitude ?? null, body.longitude ?? null, body.accuracy === undefined ? null : Math.round(body.accuracy * 100),
  null, "unfenced", "[]", null,
];
const SHIFT_COLUMNS = ["id", "organization_id", "employee_id", "location_id", "role_id", "start_at", "end_at", "utc_offset", "business_date", "hourly_wage", "duration", "total_paid_breaks", "total_unpaid_breaks", "payable_duration", "flags", "manual_entry", "active", "created_at", "updated_at", "deleted_at"];

export async function clockIn(db, { org, staffId, locationId }, request) {
  const body = await request.json();
  const now = Date.now();
  const ctx = await punchContext(db, { org, staffId, locationId, roleId: body.roleId, now });
  if (!ctx.staff || !ctx.location) return problem(404, "NOT_FOUND");
  if (!ctx.role) return problem(404, "ROLE_NOT_FOUND");
  if (ctx.openShift) return problem(409, "SHIFT_ALREADY_OPEN");
  const utcOffset = body.utcOffset ?? offsetMinutesAt(ctx.location.timezone, now);
  const date = businessDate(now, utcOffset);
  if (ctx.lockedDates.has(date)) return problem(409, "DAY_LOCKED");
  const shift = {
    id: crypto.randomUUID(), organization_id: ctx.location.organization_id, employee_id: staffId, location_id: locationId,
    role_id: ctx.role.id, start_at: now, end_at: null, utc_offset: utcOffset, business_date: date,
    hourly_wage: ctx.role.hourly_wage ?? ctx.staff.hourly_wage ?? 0, duration: 0, total_paid_breaks: 0, total_unpaid_breaks: 0,
    payable_duration: 0, flags: "[]", manual_entry: 0, active: 1, created_at: now, updated_at: now, deleted_at: null,
  };
  const event = eventValues(ctx, shift.id, "clock_in", now, body);
  try {
    await run(db, CLOCK_IN_WRITES, [SHIFT_COLUMNS.map((c) => shift[c]), event]);
  } catch (error) {
    if (/UNIQUE constraint failed: shifts\.employee_id/i.test(String(error))) return problem(409, "SHIFT_ALREADY_OPEN");
    throw error;
  }
  return json(shiftJson(shift, [], [{ kind: "clock_in", occurredAt: new Date(now).toISOString() }]));
}

export async function clockOut(db, { org, staffId, locationId }, request) {
  const body = await request.json();
  const now = Date.now();
  const ctx = await punchContext(db, { org, staffId, locationId, now });
  if (!ctx.staff || !ctx.location) return problem(404, "NOT_FOUND");
  const open = ctx.openShift;
  if (!open || open.location_id !== locationId) return problem(409, "NO_OPEN_SHIFT");
  if (ctx.lockedDates.has(open.business_date)) return problem(409, "DAY_LOCKED");
  const breaks = ctx.breaks.map((b) => (b.end_at === null ? { ...b, end_at: now } : b));
  const minutes = (from, to) => Math.floor((to - from) / 60_000);
  const paid = breaks.filter((b) => b.paid).reduce((n, b) => n + minutes(b.start_at, b.end_at), 0);
  const unpaid = breaks.filter((b) => !b.paid).reduce((n, b) => n + minutes(b.start_at, b.end_at), 0);
  const duration = minutes(open.start_at, now);
  const closed = {
    ...open, end_at: now, duration, total_paid_breaks: paid, total_unpaid_breaks: unpaid,
    payable_duration: Math.max(0, duration - unpaid), active: 0, updated_at: now,
  };
  const event = eventValues(ctx, open.id, "clock_out", now, body);
  try {
    await run(db, CLOCK_OUT_WRITES, [event, [now, open.id], [...SHIFT_COLUMNS.map((c) => closed[c]), open.id]]);
  } catch (error) {
    if (/constraint failed: shift_events/i.test(String(error))) return problem(409, "NO_OPEN_SHIFT");
    throw error;
  }
  return json(shiftJson(closed, breaks, [{ kind: "clock_out", occurredAt: new Date(now).toISOString() }]));
}

export async function shiftState(db, { org, staffId, locationId }) {
  const now = Date.now();
  const dates = [-1, 0, 1].map((d) => utcDate(now + d * DAY_MS));
  const around = [org, staffId, org, staffId, ...dates];
  const [staff, location, shifts, breaks, types] = await run(db, SHIFT_STATE_READS, [
    [org, staffId],
    [org, locationId],
    around,
    around,
    [org, locationId, 1],
  ]);
  if (!staff.results[0] || !location.results[0]) return problem(404, "NOT_FOUND");
  const today = businessDate(now, offsetMinutesAt(location.results[0].timezone, now));
  const breaksOf = (id) => breaks.results.filter((b) => b.shift_id === id);
  let total = 0;
  for (const s of shifts.results) {
    if (businessDate(s.start_at, s.utc_offset) !== today) continue;
    const end = s.end_at ?? now;
    const unpaid = breaksOf(s.id)
      .filter((b) => !b.paid)
      .reduce((n, b) => n + Math.floor(((b.end_at ?? end) - b.start_at) / 60_000), 0);
    total += Math.max(0, Math.floor((end - s.start_at) / 60_000) - unpaid);
  }
  const open = shifts.results.find((s) => s.end_at === null) ?? null;
  const breakOpen = open ? breaksOf(open.id).some((b) => b.end_at === null) : false;
  const canStartBreak = open !== null && open.location_id === locationId && !breakOpen;
  return json({
    totalShiftTimeToday: total,
    openShift: open ? shiftJson(open, breaksOf(open.id)) : null,
    availableBreaks: canStartBreak ? types.results.map((t) => t.id) : [],
  });
}

/** [method, path pattern, handler]: the worker's routes for this scenario. */
const base = String.raw`^/api/organizations/([^/]+)/staffmembers/([^/]+)/locations/([^/]+)`;
export const routes = [
  ["POST", new RegExp(`${base}/clock-in$`), clockIn],
  ["POST", new RegExp(`${base}/clock-out$`), clockOut],
  ["GET", new RegExp(`${base}/shift-state$`), shiftState],
].map(([method, pattern, handler]) => ({
  method,
  pattern,
  handle: (db, match, request) => handler(db, { org: match[1], staffId: match[2], locationId: match[3] }, request),
}));
