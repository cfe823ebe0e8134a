// Baseline clock-in, clock-out and shift-state: the same D1 statements and round trips as our Worker, written by hand
// with no framework, no validation, no authorisation and no trust flags. What is left is the floor: parsing the
// request, the D1 batches, the least arithmetic that gives a correct answer, and JSON out.
//
// The handlers take the request as a small `input` ({headers, body, text(), path(), reply(body, status)}) so that two
// Workers share them: the frameworkless baseline (worker.js: `request.json()`, `Response.json`) and the hono-only
// Worker (bench/hono-only: zod-validated body, `c.json`), which then differ by the framework alone.
import { addDays } from "../../src/domain/local-time.ts";
import { applyWorkingTimeOverrides, LONGEST_REFERENCE_DAYS, workingTimePack } from "../../src/domain/working-time/packs.ts";
import { clockOutWorkingTimeFindings } from "../../src/domain/working-time/punch-findings.ts";
import {
  CLOCK_IN_READS,
  CLOCK_IN_WRITES,
  CLOCK_OUT_READS,
  CLOCK_OUT_WRITES,
  EXCEPTION_WRITE,
  IDEMPOTENCY_WRITES,
  SHIFT_STATE_READS,
} from "./statements.js";
import { writeGuard } from "./write-guard.js";

const DAY_MS = 86_400_000;
const IDEMPOTENCY_TTL_MS = DAY_MS;
const utcDate = (ms) => new Date(ms).toISOString().slice(0, 10);
const problem = (input, status, code) => input.reply({ status, code }, status);

const formatters = new Map();
/** Minutes east of UTC in an IANA zone at an instant. */
function offsetMinutesAt(timeZone, ms) {
  let f = formatters.get(timeZone);
  if (!f) {
    f = new Intl.DateTimeFormat("en-US", {
      timeZone,
      hourCycle: "h23",
      year: "numeric",
      month: "2-digit",
      day: "2-digit",
      hour: "2-digit",
      minute: "2-digit",
      second: "2-digit",
    });
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

/**
 * The Idempotency-Key of a punch, if sent: no token here, so the scope is the organization and staff member of the
 * path; the hash is of the method, path and body, as ours computes it.
 */
async function idempotencyOf(input, org, staffId) {
  const key = input.headers.get("Idempotency-Key");
  if (key === null) return null;
  const digest = await crypto.subtle.digest("SHA-256", new TextEncoder().encode(`POST ${input.path()}\n${await input.text()}`));
  const hash = Array.from(new Uint8Array(digest), (b) => b.toString(16).padStart(2, "0")).join("");
  return { scope: `baseline:${org}:${staffId}`, key, hash };
}

const HOUR_MS = 3_600_000;
/** A clock-in works the published entry whose span, opened this long before its start, holds it (domain/attendance). */
const EARLY_WINDOW_MS = 2 * HOUR_MS;

/** Closed shifts this far either side of a clock-out are read for its working-time check (src/data/working-time). */
const WORKING_TIME_AROUND_MS = 8 * DAY_MS;

/**
 * The one read batch of a punch (15 statements for a clock-in, 20 for a clock-out, one round trip): the punch's
 * context, then attendance's, and on a clock-out the working-time check's.
 */
async function punchContext(db, { kind, org, staffId, locationId, roleId, costCodeId, now, idempotency }) {
  const lockFrom = utcDate(now - DAY_MS);
  const lockTo = utcDate(now + DAY_MS);
  const [
    staff,
    location,
    role,
    ,
    openShift,
    breaks,
    lastEvent,
    breakTypes,
    locked,
    ,
    fields,
    key,
    ,
    settings,
    entries,
    ,
    ,
    workingTime,
    nearby,
    byDate,
  ] = await run(db, kind === "clock_in" ? CLOCK_IN_READS : CLOCK_OUT_READS, [
    [org, staffId],
    [org, locationId],
    [org, roleId ?? ""],
    [org, costCodeId ?? ""],
    [org, staffId],
    [org, staffId],
    [org, staffId, 1],
    [org, locationId],
    [org, locationId, lockFrom, lockTo, org, staffId],
    [org, staffId, lockTo],
    [org],
    [idempotency?.scope ?? "", idempotency?.key ?? ""],
    [org, ""],
    [org],
    [staffId, now - 72 * HOUR_MS, now + EARLY_WINDOW_MS, locationId, org, 0],
    ...(kind === "clock_out"
      ? [
          [org, locationId],
          [staffId, org, staffId],
          [org, locationId],
          [staffId, org, now - WORKING_TIME_AROUND_MS, now + WORKING_TIME_AROUND_MS, ""],
          [staffId, org, addDays(utcDate(now), -(LONGEST_REFERENCE_DAYS + 1)), ""],
        ]
      : []),
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
    storedKey: key.results[0],
    // The custom fields' version as read (every field, deleted ones too): what the clock-out's guard compares.
    fieldsFingerprint: `${fields.results.length}:${fields.results.reduce((n, f) => n + f.updated_at, 0)}`,
    grace: { late: settings.results[0]?.late_grace_minutes ?? 5, early: settings.results[0]?.early_leave_grace_minutes ?? 5 },
    entries: entries.results,
    workingTime: workingTime && {
      setting: workingTime.results[0] ?? null,
      nearby: nearby.results,
      // The minutes column is unnamed (SUM(…)): the second of each row.
      byDate: new Map(byDate.results.map((row) => [row.business_date, Number(Object.values(row)[1])])),
    },
  };
}

/**
 * The location's pack on `date` (src/data/working-time/location-working-time effectiveWorkingTimePack): the newest
 * version from on or before it, the earliest before every version, the row itself without versions.
 */
function packOn(setting, date) {
  if (!setting) return null;
  // The versions column is unnamed (a subquery): the fourth of the row.
  const versions = JSON.parse(Object.values(setting)[3] ?? "[]").sort((a, b) => a.effectiveFrom.localeCompare(b.effectiveFrom));
  let found = versions[0] ?? { rulePack: setting.rule_pack, overrides: setting.overrides === null ? null : JSON.parse(setting.overrides) };
  for (const v of versions) if (v.effectiveFrom <= date && v.effectiveFrom >= found.effectiveFrom) found = v;
  if (!found.rulePack) return null;
  const pack = workingTimePack(found.rulePack, date);
  return pack ? applyWorkingTimeOverrides(pack, found.overrides) : null;
}

/**
 * A shift as the working-time rules read it (src/data/working-time/work-spans shiftSpan): its ended breaks (as its
 * breaks_json holds them, {startAt, endAt} in ms) in whole minutes.
 */
const spanOf = (row, breaks, end) => ({
  id: row.id,
  kind: "SHIFT",
  employeeId: row.employee_id,
  locationId: row.location_id,
  start: new Date(row.start_at),
  end: new Date(end ?? row.end_at ?? row.start_at),
  utcOffset: row.utc_offset,
  breakBlocks: breaks.flatMap((b) => (b.endAt === null ? [] : [Math.round((b.endAt - b.startAt) / 60_000)])),
});

/** The working-time findings of the shift a clock-out closes, by its location's pack on its date (none without one). */
function workingTimeFindings(ctx, closed, breaks) {
  const pack = packOn(ctx.workingTime.setting, closed.business_date);
  if (!pack) return [];
  const closing = spanOf(
    closed,
    breaks.map((b) => ({ startAt: b.start_at, endAt: b.end_at })),
    closed.end_at,
  );
  const earlier = ctx.workingTime.nearby.filter((s) => s.id !== closed.id).map((s) => spanOf(s, JSON.parse(s.breaks_json)));
  const worker = {
    birthDate: ctx.staff.birth_date === null ? null : new Date(ctx.staff.birth_date),
    optOut: ctx.staff.working_time_opt_out === null ? null : JSON.parse(ctx.staff.working_time_opt_out),
  };
  const terms = JSON.parse(ctx.workingTime.setting.school_terms ?? "[]");
  return clockOutWorkingTimeFindings(pack, closing, earlier, worker, terms, ctx.workingTime.byDate);
}

/** The entry a shift starting at `at` works (the earliest holding it, opened two hours early). */
const entryWorkedAt = (entries, at) =>
  entries
    .filter((e) => at >= e.start_at - EARLY_WINDOW_MS && at < e.end_at)
    .sort((a, b) => a.start_at - b.start_at || (a.id < b.id ? -1 : 1))[0];

/** The values of a pay-freeze guard: `value`, or NULL when the staff member's timesheet of `date` is approved or its period closed. */
const frozenGuard = (value, staffId, date, org) => [value, staffId, date, date, org, org, date, date];

/** The values of one exception insert (EXCEPTION_WRITE). */
const exceptionValues = (shift, type, entryId, minutes, now) => [
  crypto.randomUUID(),
  shift.organization_id,
  shift.location_id,
  shift.employee_id,
  type,
  shift.business_date,
  entryId,
  shift.id,
  minutes,
  "OPEN",
  null,
  now,
  null,
  null,
  now,
];

/** A retry under a key already used: its stored answer, or a refusal of another request under the same key. */
function previousAnswer(input, ctx, idempotency, now) {
  const stored = ctx.storedKey;
  if (!idempotency || !stored || stored.expires_at <= now) return null;
  if (stored.request_hash !== idempotency.hash) return problem(input, 422, "IDEMPOTENCY_KEY_REUSED");
  if (stored.status === null) return problem(input, 409, "IDEMPOTENCY_REQUEST_IN_PROGRESS");
  return new Response(stored.body, {
    status: stored.status,
    headers: { "Content-Type": stored.content_type, "Idempotent-Replayed": "true" },
  });
}

/** The write batch: the principal guard, then the answer stored under the key when one was sent, then the punch. */
async function commit(db, input, idempotency, answer, now, statements, params) {
  const guard = writeGuard(input);
  const keyed = idempotency
    ? [
        [
          IDEMPOTENCY_WRITES,
          [
            [idempotency.scope, idempotency.key, now],
            [
              idempotency.scope,
              idempotency.key,
              idempotency.hash,
              200,
              JSON.stringify(answer),
              "application/json",
              now,
              now + IDEMPOTENCY_TTL_MS,
            ],
          ],
        ],
      ]
    : [];
  const all = [[[guard.sql], [guard.params]], ...keyed, [statements, params]];
  await run(
    db,
    all.flatMap(([s]) => s),
    all.flatMap(([, p]) => p),
  );
}

const wall = (ms, offset) => (ms === null ? null : new Date(ms + offset * 60_000).toISOString());
const shiftJson = (s, breaks, events, locked = false) => ({
  id: s.id,
  employeeId: s.employee_id,
  locationId: s.location_id,
  roleId: s.role_id,
  costCodeId: s.cost_code_id ?? null,
  customFields: JSON.parse(s.custom_fields),
  startTime: wall(s.start_at, s.utc_offset),
  endTime: wall(s.end_at, s.utc_offset),
  breaks: breaks.map((b) => ({
    startTime: wall(b.start_at, s.utc_offset),
    endTime: wall(b.end_at, s.utc_offset),
    typeId: b.type_id,
    paid: !!b.paid,
    name: b.name,
  })),
  hourlyWage: s.hourly_wage,
  wageRateId: s.wage_rate_id ?? null,
  totalPaidBreaks: s.total_paid_breaks,
  totalUnpaidBreaks: s.total_unpaid_breaks,
  duration: s.duration,
  payableDuration: s.payable_duration,
  utcOffset: s.utc_offset,
  utcStartTime: new Date(s.start_at).toISOString(),
  utcEndTime: s.end_at === null ? null : new Date(s.end_at).toISOString(),
  locked,
  active: s.end_at === null,
  flags: JSON.parse(s.flags),
  manualEntry: !!s.manual_entry,
  clockInSource: s.clock_in_source,
  clockInDeviceId: s.clock_in_device_id,
  clockOutSource: s.clock_out_source,
  clockOutDeviceId: s.clock_out_device_id,
  businessDate: s.business_date,
  ...(events ? { events } : {}),
  createdAt: new Date(s.created_at).toISOString(),
  updatedAt: new Date(s.updated_at).toISOString(),
  deletedAt: null,
});

/** [id, organization_id, shift_id, employee_id, kind, break_id, occurred_at, received_at, lat, lon, accuracy, distance, verdict, flags, idempotency_key, source, device_id, photo_id] */
const eventValues = (ctx, shiftId, kind, now, body, idempotency) => [
  crypto.randomUUID(),
  ctx.location.organization_id,
  shiftId,
  ctx.staff.id,
  kind,
  "",
  now,
  now,
  body.latitude ?? null,
  body.longitude ?? null,
  body.accuracy === undefined ? null : Math.round(body.accuracy * 100),
  null,
  "unfenced",
  "[]",
  idempotency?.key ?? null,
  SOURCE,
  null,
  null,
];
/** The event as the punch's answer lists it (ours: each event's columns but its ids). */
const eventJson = (values) => {
  const [
    ,
    ,
    ,
    ,
    kind,
    ,
    occurredAt,
    receivedAt,
    latitude,
    longitude,
    accuracyCentimeters,
    distanceCentimeters,
    verdict,
    flags,
    ,
    source,
    deviceId,
    photoId,
  ] = values;
  return {
    kind,
    occurredAt: new Date(occurredAt).toISOString(),
    receivedAt: new Date(receivedAt).toISOString(),
    latitude,
    longitude,
    accuracyCentimeters,
    distanceCentimeters,
    verdict,
    flags: JSON.parse(flags),
    source,
    deviceId,
    photoId,
  };
};
/** A staff member's own punch through the API, as ours records it (no kiosk device, no photo). */
const SOURCE = "MOBILE";
const SHIFT_COLUMNS = [
  "id",
  "organization_id",
  "employee_id",
  "location_id",
  "role_id",
  "start_at",
  "end_at",
  "utc_offset",
  "business_date",
  "hourly_wage",
  "salaried",
  "wage_rate_id",
  "wage_source",
  "duration",
  "total_paid_breaks",
  "total_unpaid_breaks",
  "payable_duration",
  "flags",
  "manual_entry",
  "clock_in_source",
  "clock_in_device_id",
  "clock_out_source",
  "clock_out_device_id",
  "cost_code_id",
  "breaks_json",
  "custom_fields",
  "active",
  "created_at",
  "updated_at",
  "deleted_at",
];

/** Constraint failures of a punch's write batch, as ours maps them. */
function refusal(input, error, problems) {
  const found = problems.find(([pattern]) => pattern.test(String(error)));
  if (found) return problem(input, 409, found[1]);
  throw error;
}
const KEY_TWIN = [/UNIQUE constraint failed: idempotency_keys/i, "IDEMPOTENCY_REQUEST_IN_PROGRESS"];

export async function clockIn(db, { org, staffId, locationId }, input) {
  const body = input.body;
  const now = Date.now();
  const idempotency = await idempotencyOf(input, org, staffId);
  const ctx = await punchContext(db, {
    kind: "clock_in",
    org,
    staffId,
    locationId,
    roleId: body.roleId,
    costCodeId: body.costCodeId,
    now,
    idempotency,
  });
  if (!ctx.staff || !ctx.location) return problem(input, 404, "NOT_FOUND");
  const replay = previousAnswer(input, ctx, idempotency, now);
  if (replay) return replay;
  if (!ctx.role) return problem(input, 404, "ROLE_NOT_FOUND");
  if (ctx.openShift) return problem(input, 409, "SHIFT_ALREADY_OPEN");
  const utcOffset = body.utcOffset ?? offsetMinutesAt(ctx.location.timezone, now);
  const date = businessDate(now, utcOffset);
  if (ctx.lockedDates.has(date)) return problem(input, 409, "DAY_LOCKED");
  const shift = {
    id: crypto.randomUUID(),
    organization_id: ctx.location.organization_id,
    employee_id: staffId,
    location_id: locationId,
    role_id: ctx.role.id,
    start_at: now,
    end_at: null,
    utc_offset: utcOffset,
    business_date: date,
    hourly_wage: ctx.role.hourly_wage ?? ctx.staff.hourly_wage ?? 0,
    salaried: 0,
    wage_rate_id: null,
    // How the wage was set (src/domain/shift-wage.ts): a clock-in's is resolved, never set by hand.
    wage_source: "RESOLVED",
    duration: 0,
    total_paid_breaks: 0,
    total_unpaid_breaks: 0,
    payable_duration: 0,
    flags: "[]",
    manual_entry: 0,
    clock_in_source: SOURCE,
    clock_in_device_id: null,
    clock_out_source: null,
    clock_out_device_id: null,
    cost_code_id: null,
    breaks_json: "[]",
    custom_fields: "{}",
    active: 1,
    created_at: now,
    updated_at: now,
    deleted_at: null,
  };
  // The guards: organization_id NULL on a locked day, employee_id NULL when another shift overlaps.
  const guarded = [
    shift.id,
    shift.organization_id,
    locationId,
    date,
    staffId,
    shift.organization_id,
    staffId,
    shift.id,
    now,
    ...frozenGuard(locationId, staffId, date, shift.organization_id),
    ...SHIFT_COLUMNS.slice(4).map((c) => shift[c]),
  ];
  const event = eventValues(ctx, shift.id, "clock_in", now, body, idempotency);
  const answer = shiftJson(shift, [], [eventJson(event)]);
  const entry = entryWorkedAt(ctx.entries, now);
  const late = entry && now > entry.start_at + ctx.grace.late * 60_000;
  const exception = !entry
    ? exceptionValues(shift, "UNSCHEDULED_SHIFT", null, null, now)
    : late
      ? exceptionValues(shift, "LATE_CLOCK_IN", entry.id, Math.floor((now - entry.start_at) / 60_000), now)
      : null;
  const writes = exception
    ? [
        [...CLOCK_IN_WRITES, EXCEPTION_WRITE],
        [guarded, event, exception],
      ]
    : [CLOCK_IN_WRITES, [guarded, event]];
  try {
    await commit(db, input, idempotency, answer, now, ...writes);
  } catch (error) {
    return refusal(input, error, [
      KEY_TWIN,
      [/NOT NULL constraint failed: shifts\.organization_id/i, "DAY_LOCKED"],
      [/NOT NULL constraint failed: shifts\.employee_id/i, "SHIFT_OVERLAP"],
      [/UNIQUE constraint failed: shifts\.employee_id/i, "SHIFT_ALREADY_OPEN"],
    ]);
  }
  return input.reply(answer, 200);
}

export async function clockOut(db, { org, staffId, locationId }, input) {
  const body = input.body;
  const now = Date.now();
  const idempotency = await idempotencyOf(input, org, staffId);
  const ctx = await punchContext(db, { kind: "clock_out", org, staffId, locationId, now, idempotency });
  if (!ctx.staff || !ctx.location) return problem(input, 404, "NOT_FOUND");
  const replay = previousAnswer(input, ctx, idempotency, now);
  if (replay) return replay;
  const open = ctx.openShift;
  if (!open || open.location_id !== locationId) return problem(input, 409, "NO_OPEN_SHIFT");
  if (ctx.lockedDates.has(open.business_date)) return problem(input, 409, "DAY_LOCKED");
  const breaks = ctx.breaks.map((b) => (b.end_at === null ? { ...b, end_at: now } : b));
  const minutes = (from, to) => Math.floor((to - from) / 60_000);
  const paid = breaks.filter((b) => b.paid).reduce((n, b) => n + minutes(b.start_at, b.end_at), 0);
  const unpaid = breaks.filter((b) => !b.paid).reduce((n, b) => n + minutes(b.start_at, b.end_at), 0);
  const duration = minutes(open.start_at, now);
  const closed = {
    ...open,
    end_at: now,
    duration,
    total_paid_breaks: paid,
    total_unpaid_breaks: unpaid,
    payable_duration: Math.max(0, duration - unpaid),
    clock_out_source: SOURCE,
    clock_out_device_id: null,
    active: 0,
    updated_at: Math.max(now, open.updated_at + 1),
  };
  // The event's guards: organization_id NULL on a locked day, shift_id NULL once closed, employee_id NULL once changed.
  const values = eventValues(ctx, open.id, "clock_out", now, body, idempotency);
  const [id, , , , kind, ...rest] = values;
  const [verdict, flags, key, source, deviceId, photoId] = rest.slice(7);
  const guardedVerdict = frozenGuard(verdict, staffId, open.business_date, org);
  const event = [
    id,
    org,
    open.location_id,
    open.business_date,
    open.id,
    org,
    open.id,
    org,
    open.updated_at,
    kind,
    ...rest.slice(0, 7),
    ...guardedVerdict,
    flags,
    key,
    source,
    deviceId,
    photoId,
  ];
  const close = [
    closed.end_at,
    closed.duration,
    closed.total_paid_breaks,
    closed.total_unpaid_breaks,
    closed.payable_duration,
    closed.flags,
    closed.clock_out_source,
    closed.clock_out_device_id,
    // The custom fields, as clock-out checks them (every required field valued): guarded by the fields' version.
    org,
    ctx.fieldsFingerprint,
    closed.custom_fields,
    0,
    closed.updated_at,
    org,
    open.id,
  ];
  const answer = shiftJson(closed, breaks, [eventJson(values)]);
  const entry = entryWorkedAt(ctx.entries, open.start_at);
  const early = entry && now + ctx.grace.early * 60_000 < entry.end_at;
  const findings = [
    ...(early ? [{ type: "EARLY_CLOCK_OUT", scheduleEntryId: entry.id, minutes: Math.floor((entry.end_at - now) / 60_000) }] : []),
    ...workingTimeFindings(ctx, closed, breaks),
  ];
  // The meal rule needs pay rule sets, which the bench's organization has none of (no MISSED_MEAL_BREAK to find).
  // Ours raises two or more in one multi-row INSERT, which the recording (one exception at most) does not hold.
  if (findings.length > 1) throw new Error(`baseline clock-out: ${findings.length} exceptions, the recording inserts one`);
  const [finding] = findings;
  const exception = finding && exceptionValues(closed, finding.type, finding.scheduleEntryId, finding.minutes, now);
  const writes = exception
    ? [
        [...CLOCK_OUT_WRITES, EXCEPTION_WRITE],
        [event, close, exception],
      ]
    : [CLOCK_OUT_WRITES, [event, close]];
  try {
    await commit(db, input, idempotency, answer, now, ...writes);
  } catch (error) {
    return refusal(input, error, [
      KEY_TWIN,
      [/NOT NULL constraint failed: shift_events\.organization_id/i, "DAY_LOCKED"],
      [/NOT NULL constraint failed: shift_events\.shift_id/i, "NO_OPEN_SHIFT"],
      [/NOT NULL constraint failed: shift_events\.employee_id/i, "SHIFT_CHANGED"],
      [/NOT NULL constraint failed: shifts\.custom_fields/i, "CUSTOM_FIELDS_CHANGED"],
    ]);
  }
  return input.reply(answer, 200);
}

export async function shiftState(db, { org, staffId, locationId }, input) {
  const now = Date.now();
  const dates = [-1, 0, 1].map((d) => utcDate(now + d * DAY_MS));
  const around = [org, staffId, org, staffId, ...dates];
  const [staff, location, shifts, breaks, types, openShiftLock] = await run(db, SHIFT_STATE_READS, [
    [org, staffId],
    [org, locationId],
    around,
    around,
    [org, locationId, 1],
    [org, org, staffId],
  ]);
  if (!staff.results[0] || !location.results[0]) return problem(input, 404, "NOT_FOUND");
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
  return input.reply({
    totalShiftTimeToday: total,
    openShift: open ? shiftJson(open, breaksOf(open.id), undefined, openShiftLock.results.length > 0) : null,
    availableBreaks: canStartBreak ? types.results.map((t) => t.id) : [],
  });
}

/** [method, path pattern, handler]: the worker's routes for this scenario. */
const base = "^/api/organizations/([^/]+)/staffmembers/([^/]+)/locations/([^/]+)";
export const routes = [
  ["POST", new RegExp(`${base}/clock-in$`), clockIn],
  ["POST", new RegExp(`${base}/clock-out$`), clockOut],
  ["GET", new RegExp(`${base}/shift-state$`), shiftState],
].map(([method, pattern, handler]) => ({
  method,
  pattern,
  handle: async (db, match, request) => handler(db, { org: match[1], staffId: match[2], locationId: match[3] }, await plainInput(request)),
}));

const reply = (body, status) => Response.json(body, { status });
/** The frameworkless input: the body read and parsed by hand (a GET has none), `Response.json` answers. */
async function plainInput(request) {
  const text = request.method === "POST" ? await request.text() : "";
  return {
    headers: request.headers,
    body: text === "" ? undefined : JSON.parse(text),
    text: () => text,
    path: () => {
      const url = new URL(request.url);
      return `${url.pathname}${url.search}`;
    },
    reply,
  };
}
