// Issue 31, items 5 and 6: an organization of 10,000 active staff in 200 locations (`--staff N` for a smaller one
// while developing), two weeks of shifts (≈ 10 per staff member), published schedules, time-off balances and
// requests, availability rules and an event log, seeded by SQL through the bench endpoints (never 100,000 API calls).
// Then every operation whose work grows with the organization, each invocation traced: D1 round trips, queries
// (statements) per invocation, the largest statement (UTF-8 bytes, bound parameters), the largest value written,
// peak JS heap and CPU time of the isolate (through the inspector, bench/lib/profiler.mjs) and wall time, checked
// against D1's production limits (the guard's own numbers, GET /__bench/limits) and the issue's targets. Pay lines
// are also measured on a second organization of 500 staff: their cost per employee at both sizes is printed.
// Figures are printed, never asserted; the last line sums them up (docs/SCALING.md, "Limits").
import { randomUUID } from "node:crypto";
import { accessToken, expectStatus, seedOrganization } from "../lib/api.mjs";
import { watchIsolate } from "../lib/profiler.mjs";
import { table } from "../lib/report.mjs";
import { startOurs } from "../lib/workers.mjs";

export const name = "scale";
export const description =
  "10,000 staff in 200 locations, two weeks of shifts: every operation that grows with the organization against D1's limits (issue 31)";

/** Locations of the organization (SCALE_LOCATIONS=3 in the environment makes a quick smoke run while developing). */
const LOCATIONS = Number(process.env.SCALE_LOCATIONS ?? 200);
/** Two weeks from a Monday (the location zone is UTC): the biweekly pay period and the shifts' range. */
const FIRST_DAY = "2026-03-02";
const LAST_DAY = "2026-03-15";
const WEEK_END = "2026-03-08";
const SMALL_STAFF = 500;
/** Balances a page of the accrual pass handles (one invocation; at 5,000: 104 MB and 8.3 s of CPU at 50,000 staff). */
const ACCRUAL_PAGE = 1000;
const HOUR = 3_600_000;
const DAY = 24 * HOUR;
/** Shifts per seed request (POST /__bench/seed-shifts: src's totals, rows as JSON, 1,000 a statement). */
const SEED_CHUNK = 5000;
/** Events seeded into the organization's log before the feed is read. */
const EVENTS = 100_000;
/** Pages walked of a listing whose pages all cost the same (keyset): the first ones say what each costs. */
const LISTING_PAGES = 3;
/**
 * The issue's targets beside D1's limits; and D1's own "Maximum SQL query duration", 30 s, which applies to a whole
 * batch call too (developers.cloudflare.com/d1/platform/limits): measured as local SQLite's `meta.duration`.
 */
const TARGETS = { heapBytes: 64 * 1024 * 1024, cpuMs: 5000, payLinesRatio: 1.5, d1CallMs: 30_000 };
const REQUEST_TIMEOUT_MS = 300_000;

const addDays = (date, days) => new Date(Date.parse(date) + days * DAY).toISOString().slice(0, 10);
const WEEKDAYS = Array.from({ length: 14 }, (_, d) => addDays(FIRST_DAY, d)).filter((_, d) => d % 7 < 5);
const query = (params) => new URLSearchParams(Object.entries(params).filter(([, v]) => v !== undefined)).toString();
const nextOf = (headers) => /<([^>]+)>;\s*rel="next"/.exec(headers.get("Link") ?? "")?.[1] ?? null;
const mb = (bytes) => (bytes / 1024 / 1024).toFixed(1);
const kb = (bytes) => `${(bytes / 1024).toFixed(0)} kB`;
/** Seeding statements over every staff member (500,000 schedule entries at 50,000 staff) run for minutes. */
const SEED_TIMEOUT_MS = 900_000;
const sql = (ours, text, params = []) =>
  expectStatus(ours.request("POST", "/__bench/sql", { body: { sql: text, params }, timeoutMs: SEED_TIMEOUT_MS }), 200, "bench sql");
const counter = (count) => `WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n WHERE i < ${count})`;
/** A staff id of the seeded organization `tag` (8 hex digits): a version-4 UUID whose last group is the number. */
const staffIdSql = (tag) => `printf('${tag}-0000-4000-8000-%012d', i)`;

/** How many staff each location gets: the first `big` (eligibility), the second `week` (week view), the rest spread. */
function shape(staff) {
  return { big: Math.round(staff * 0.2), week: Math.round(staff * 0.05) };
}

async function seedStaffAndShifts(ours, { orgId, tag, staff, locationIds, roleId, plan }) {
  const created = Date.parse("2025-12-01T00:00:00Z");
  // Location of staff member i: 0 for the first `big`, 1 for the next `week`, then round-robin over the others.
  const locationIndex =
    locationIds.length === 1
      ? "0"
      : `CASE WHEN i <= ${plan.big} THEN 0 WHEN i <= ${plan.big + plan.week} THEN 1 ELSE 2 + (i % ${locationIds.length - 2}) END`;
  await sql(
    ours,
    `${counter(staff)} INSERT INTO staff_members (id, organization_id, name, external_id, external_payroll_id, access_role_id,
        hourly_wage, location_ids, role_ids, active, created_at, updated_at)
      SELECT ${staffIdSql(tag)}, ?1, 'Staff ' || i, 'emp-' || i, 'pay-' || i,
        (SELECT id FROM access_roles WHERE organization_id = ?1 ORDER BY id LIMIT 1), 18 + i % 10,
        json_array(json_extract(?2, '$[' || (${locationIndex}) || ']')), json_array(?3), 1, ?4, ?4 FROM n`,
    [orgId, JSON.stringify(locationIds), roleId, created],
  );
  // Shifts: every weekday of both weeks, 8 to 10.5 hours from 08:00 UTC, a 30-minute unpaid lunch on most.
  const members = Array.from({ length: staff }, (_, k) => ({
    id: `${tag}-0000-4000-8000-${String(k + 1).padStart(12, "0")}`,
    locationId: locationIds[locationIndexOf(k + 1, plan, locationIds.length)],
  }));
  let shifts = 0;
  let batch = [];
  const flush = async () => {
    if (batch.length === 0) return;
    await expectStatus(
      ours.request("POST", "/__bench/seed-shifts", { body: { organizationId: orgId, shifts: batch }, timeoutMs: SEED_TIMEOUT_MS }),
      200,
      "seed shifts",
    );
    shifts += batch.length;
    batch = [];
  };
  for (const [k, member] of members.entries()) {
    for (const [d, date] of WEEKDAYS.entries()) {
      const minutes = 480 + ((k + d) % 6) * 30;
      batch.push({
        employeeId: member.id,
        locationId: member.locationId,
        roleId,
        startAt: Date.parse(`${date}T08:00:00Z`),
        minutes,
        utcOffset: 0,
        hourlyWage: 18 + ((k + 1) % 10),
        breaks: (k + d) % 4 !== 0 ? [{ afterMinutes: 240, minutes: 30, paid: false, name: "Lunch" }] : [],
      });
      if (batch.length >= SEED_CHUNK) await flush();
    }
  }
  await flush();
  return { members, shifts };
}

function locationIndexOf(i, plan, count) {
  if (count === 1) return 0;
  if (i <= plan.big) return 0;
  if (i <= plan.big + plan.week) return 1;
  return 2 + (i % (count - 2));
}

async function seed(ours, staff, print) {
  const r = ours.request;
  const started = Date.now();
  const plan = shape(staff);
  const { org, admin } = await seedOrganization(r, { name: "Bench Scale", timezone: "UTC" });
  const path = `/api/organizations/${org.id}`;
  const roleId = org.defaults.roles[0].id;
  const tokens = await Promise.all(Array.from({ length: 4 }, () => accessToken(r, { organizationId: org.id })));
  const locationIds = [];
  for (let i = 0; i < LOCATIONS; i += 8) {
    const made = await Promise.all(
      Array.from({ length: Math.min(8, LOCATIONS - i) }, (_, j) =>
        expectStatus(
          r("POST", `${path}/locations`, { token: tokens[(i + j) % tokens.length], body: { name: `Store ${i + j + 1}`, timezone: "UTC" } }),
          201,
          "location",
        ),
      ),
    );
    locationIds.push(...made.map((l) => l.id));
  }
  // A time-off policy before the staff exist (its assignment to all is then the SQL below, not one request's work).
  const types = await expectStatus(r("GET", `${path}/policies/types`, { token: admin }), 200, "policy types");
  const policy = await expectStatus(
    r("POST", `${path}/policies`, {
      token: admin,
      body: {
        name: "Vacation (weekly)",
        typeId: types.find((t) => t.type === "Vacation").id,
        requiresApproval: false,
        allowNegativeBalance: true,
        defaultSettings: { assignedStaff: { type: "All" } },
        limitSettings: {
          isFixedAmount: true,
          fixedAmount: { hours: 2, accrualCycle: "Periodic", accrualFrequency: "EveryOneWeek", accrualDay: "Monday" },
        },
      },
    }),
    201,
    "policy",
  );
  await expectStatus(r("PATCH", `${path}/policies/${policy.id}/activate`, { token: admin }), 200, "activate policy");

  const lap = (label) => print(`  seeding: ${label} at ${((Date.now() - started) / 1000).toFixed(1)} s`);
  lap("locations and the policy");
  const { members, shifts } = await seedStaffAndShifts(ours, { orgId: org.id, tag: "5ca1e000", staff, locationIds, roleId, plan });
  lap(`staff and ${shifts} shifts`);
  const now = Date.parse(`${FIRST_DAY}T00:00:00Z`) - 7 * DAY;
  // Published schedule entries matching the shifts (08:00–16:30 UTC every weekday), at the staff member's location.
  await sql(
    ours,
    `INSERT INTO schedule_entries (id, organization_id, location_id, employee_id, role_id, start_at, end_at, utc_offset,
        timezone, breaks, is_draft, published_at, active, created_at, updated_at)
      SELECT lower(hex(randomblob(16))), s.organization_id, json_extract(s.location_ids, '$[0]'), s.id, ?1, d.value,
        d.value + 30600000, 0, 'UTC', '[]', 0, ?2, 1, ?2, ?2
      FROM staff_members s, json_each(?3) d WHERE s.organization_id = ?4`,
    [roleId, now, JSON.stringify(WEEKDAYS.map((day) => Date.parse(`${day}T08:00:00Z`))), org.id],
  );
  // Time off: every staff member's balance of the policy (accruing 2 h every Monday since 5 January), and an
  // approved day off in the range for one in ten, with its usage entry.
  const start = Date.parse("2026-01-05T00:00:00Z");
  await sql(ours, "UPDATE time_off_policies SET activated_at = ?1 WHERE organization_id = ?2", [start, org.id]);
  await sql(
    ours,
    `INSERT INTO worker_policies (id, organization_id, policy_id, worker_id, active, created_at, updated_at)
      SELECT lower(hex(randomblob(16))), s.organization_id, ?1, s.id, 1, ?2, ?2 FROM staff_members s
      WHERE s.organization_id = ?3 AND NOT EXISTS (SELECT 1 FROM worker_policies w WHERE w.policy_id = ?1 AND w.worker_id = s.id)`,
    [policy.id, start, org.id],
  );
  const offDay = "2026-03-11";
  const offStart = Date.parse(`${offDay}T08:00:00Z`);
  await sql(
    ours,
    `INSERT INTO time_off_requests (id, organization_id, worker_id, policy_id, worker_policy_id, start_at, end_at, is_all_day,
        hour_configuration, total_hours, status, timezone, utc_offset, submitted_at, decided_at, active, created_at, updated_at)
      SELECT lower(hex(randomblob(16))), wp.organization_id, wp.worker_id, wp.policy_id, wp.id, ?1, ?2, 0, ?3, 8, 'approved',
        'UTC', 0, ?4, ?4, 1, ?4, ?4
      FROM worker_policies wp WHERE wp.policy_id = ?5 AND CAST(substr(wp.worker_id, 25) AS INTEGER) % 10 = 0`,
    [offStart, offStart + 8 * HOUR, JSON.stringify([{ date: offDay, hours: 8 }]), now, policy.id],
  );
  await sql(
    ours,
    `INSERT INTO time_off_ledger (id, organization_id, worker_policy_id, kind, hours, effective_date, source_type, source_id, created_at)
      SELECT lower(hex(randomblob(16))), organization_id, worker_policy_id, 'usage', -total_hours,
        json_extract(hour_configuration, '$[0].date'), 'request', id, ?1
      FROM time_off_requests WHERE organization_id = ?2`,
    [now, org.id],
  );
  // Availability of the big location's staff: a weekly Saturday morning rule (one in three UNAVAILABLE), its
  // occurrences written from four weeks before the range to eight after, as the API writes them.
  const firstSaturday = Date.parse("2026-02-07T08:00:00Z");
  await sql(
    ours,
    `INSERT INTO availabilities (id, organization_id, employee_id, type, start_time, end_time, timezone, recurrence, exdates,
        occurrences_through, created_at, updated_at)
      SELECT 'av-' || s.id, s.organization_id, s.id,
        CASE WHEN CAST(substr(s.id, 25) AS INTEGER) % 3 = 0 THEN 'UNAVAILABLE' ELSE 'PREFERRED' END,
        ?1, ?1 + 14400000, 'UTC', 'FREQ=WEEKLY;BYDAY=SA', '[]', ?2, ?3, ?3
      FROM staff_members s WHERE s.organization_id = ?4 AND json_extract(s.location_ids, '$[0]') = ?5`,
    [firstSaturday, firstSaturday + 13 * 7 * DAY, now, org.id, locationIds[0]],
  );
  await sql(
    ours,
    `WITH RECURSIVE w(k) AS (SELECT 0 UNION ALL SELECT k + 1 FROM w WHERE k < 12)
      INSERT INTO availability_occurrences (availability_id, organization_id, employee_id, type, start_at, end_at)
      SELECT a.id, a.organization_id, a.employee_id, a.type, a.start_time + w.k * 604800000, a.end_time + w.k * 604800000
      FROM availabilities a, w WHERE a.organization_id = ?1`,
    [org.id],
  );
  lap("entries, balances, time off, availability");
  // The event log: a long history behind the feed.
  await expectStatus(
    r("POST", "/__bench/seed-events", {
      body: { organizationId: org.id, count: EVENTS, type: "shift.clocked_in", data: JSON.stringify({ id: randomUUID() }) },
      timeoutMs: SEED_TIMEOUT_MS,
    }),
    200,
    "events",
  );
  await expectStatus(
    r("POST", `${path}/pay-rules`, { token: admin, body: { name: "FLSA", effectiveFrom: "2026-01-01", preset: "FLSA" } }),
    201,
    "rule set",
  );
  await expectStatus(
    r("PATCH", `${path}/pay-period-settings`, { token: admin, body: { frequency: "BIWEEKLY", anchorDate: FIRST_DAY } }),
    200,
    "settings",
  );
  const counts = (
    await sql(
      ours,
      `SELECT (SELECT count(*) FROM staff_members WHERE organization_id = ?1 AND active = 1) AS staff,
         (SELECT count(*) FROM locations WHERE organization_id = ?1) AS locations,
         (SELECT count(*) FROM shifts WHERE organization_id = ?1) AS shifts,
         (SELECT count(*) FROM schedule_entries WHERE organization_id = ?1) AS entries,
         (SELECT count(*) FROM worker_policies WHERE organization_id = ?1) AS balances,
         (SELECT count(*) FROM time_off_requests WHERE organization_id = ?1) AS timeOffs,
         (SELECT count(*) FROM availability_occurrences WHERE organization_id = ?1) AS occurrences,
         (SELECT count(*) FROM events WHERE organization_id = ?1) AS events`,
      [org.id],
    )
  ).results[0];
  print(
    `  seeded ${counts.staff} active staff in ${counts.locations} locations (${plan.big} at the first, ${plan.week} at the second), ` +
      `${counts.shifts} shifts (${shifts} through /__bench/seed-shifts), ${counts.entries} published entries, ${counts.balances} time-off balances, ` +
      `${counts.timeOffs} approved time offs, ${counts.occurrences} availability occurrences, ${counts.events} events, in ` +
      `${((Date.now() - started) / 1000).toFixed(1)} s`,
  );
  return { org, admin, path, roleId, locationIds, plan, members, staff: counts.staff };
}

/** A second organization of 500 staff with the same two weeks of shifts: pay lines' cost per employee there. */
async function seedSmall(ours, print) {
  const started = Date.now();
  const { org, admin } = await seedOrganization(ours.request, { name: "Bench Scale 500", timezone: "UTC" });
  const path = `/api/organizations/${org.id}`;
  const location = await expectStatus(
    ours.request("POST", `${path}/locations`, { token: admin, body: { name: "Depot", timezone: "UTC" } }),
    201,
    "location",
  );
  const roleId = org.defaults.roles[0].id;
  const { shifts } = await seedStaffAndShifts(ours, {
    orgId: org.id,
    tag: "5ca1e500",
    staff: SMALL_STAFF,
    locationIds: [location.id],
    roleId,
    plan: { big: SMALL_STAFF, week: 0 },
  });
  await expectStatus(
    ours.request("POST", `${path}/pay-rules`, { token: admin, body: { name: "FLSA", effectiveFrom: "2026-01-01", preset: "FLSA" } }),
    201,
    "rule set",
  );
  print(`  and a second organization of ${SMALL_STAFF} staff with ${shifts} shifts, in ${((Date.now() - started) / 1000).toFixed(1)} s`);
  return { org, admin };
}

let traceSequence = 0;

/**
 * One invocation, traced: the request inside the isolate watch (CPU, heap, wall), its trace read after it (so
 * reading the trace costs the watched figures nothing). Answers the response and its per-invocation figures.
 */
async function invoke(ours, method, path, { token, body } = {}) {
  const id = `scale-${++traceSequence}-${Date.now()}`;
  const headers = { "X-Bench-Trace": id };
  if (token) headers.Authorization = `Bearer ${token}`;
  if (body !== undefined) headers["Content-Type"] = "application/json";
  let processCpu = null;
  const watched = await watchIsolate(
    ours.inspectorPort,
    async () => {
      const started = performance.now();
      const cpuBefore = ours.workerdCpuMs();
      const response = await fetch(`${ours.url}${path}`, {
        method,
        headers,
        body: body === undefined ? undefined : JSON.stringify(body),
        signal: AbortSignal.timeout(REQUEST_TIMEOUT_MS),
      });
      const text = await response.text();
      const cpuAfter = ours.workerdCpuMs();
      if (cpuBefore !== null && cpuAfter !== null) processCpu = cpuAfter - cpuBefore;
      return { status: response.status, headers: response.headers, text, wallMs: performance.now() - started };
    },
    { collect: () => fetch(`${ours.url}/__bench/gc`, { method: "POST" }).then((r) => r.json()) },
  );
  const { status, headers: responseHeaders, text, wallMs } = watched.result;
  const trace = await ours.request("GET", `/__bench/trace/${id}`);
  const trips = trace.status === 200 ? trace.body.roundTrips : [];
  let json;
  try {
    json = JSON.parse(text);
  } catch {
    json = undefined;
  }
  return {
    status,
    headers: responseHeaders,
    text,
    body: json,
    wallMs,
    cpuMs: watched.cpuMs,
    sampledMs: watched.sampledMs,
    processCpuMs: processCpu ?? 0,
    heapBytes: watched.peakHeapBytes,
    ...d1Figures(trips),
  };
}

const writes = (statement) => /^\s*(insert|update|delete|replace)\b/i.test(statement);
const valueBytes = (value) => (typeof value === "string" ? Buffer.byteLength(value) : 0);

/** The per-invocation D1 figures of a trace. */
function d1Figures(trips) {
  let queries = 0;
  let sqlBytes = 0;
  let params = 0;
  let written = 0;
  let rowsRead = 0;
  let d1CallMs = 0;
  for (const trip of trips) {
    // D1's 30 s applies to a query and to a whole batch call: each round trip's SQL time, summed over its statements.
    d1CallMs = Math.max(
      d1CallMs,
      (trip.sqlMs ?? []).reduce((a, v) => a + (v ?? 0), 0),
    );
    trip.statements.forEach((statement, k) => {
      queries++;
      sqlBytes = Math.max(sqlBytes, Buffer.byteLength(statement));
      const values = trip.params[k] ?? [];
      params = Math.max(params, values.length);
      if (writes(statement)) for (const v of values) written = Math.max(written, valueBytes(v));
      rowsRead += trip.rowsRead[k] ?? 0;
    });
  }
  return { roundTrips: trips.length, queries, sqlBytes, params, valueBytes: written, rowsRead, d1CallMs };
}

/** An operation: its invocations (pages, or one), summed or maxed over them. */
function summarize(label, invocations, note = "") {
  const max = (key) => Math.max(0, ...invocations.map((i) => i[key]));
  const total = (key) => invocations.reduce((a, i) => a + i[key], 0);
  return {
    label,
    note,
    invocations: invocations.length,
    statuses: [...new Set(invocations.map((i) => i.status))],
    roundTrips: total("roundTrips"),
    maxRoundTrips: max("roundTrips"),
    queries: max("queries"),
    sqlBytes: max("sqlBytes"),
    params: max("params"),
    valueBytes: max("valueBytes"),
    heapBytes: max("heapBytes"),
    cpuMs: max("cpuMs"),
    cpuTotalMs: total("cpuMs"),
    sampledMs: max("sampledMs"),
    processCpuMs: max("processCpuMs"),
    d1CallMs: max("d1CallMs"),
    wallMs: total("wallMs"),
    rowsRead: total("rowsRead"),
  };
}

/** Every step of a close job, in the Workflow's order, each one traced invocation (POST /__bench/close-step). */
async function workCloseJob(ours, jobId) {
  const steps = [];
  const run = async (body) => {
    const done = await invoke(ours, "POST", "/__bench/close-step", { body: { jobId, ...body } });
    steps.push({ ...done, step: body.step });
    if (done.status !== 200) throw new Error(`close job step ${body.step}: ${done.status} ${done.text.slice(0, 500)}`);
    return done.body;
  };
  const plan = await run({ step: "plan" });
  if (!plan.ok) throw new Error(`close job refused: ${JSON.stringify(plan.error)}`);
  const parts = [];
  let afterId = null;
  for (let n = 1; ; n++) {
    const part = await run({ step: "employees", plan, n, afterId });
    parts.push(part);
    afterId = part.afterId;
    if (!part.more) break;
  }
  let carried = null;
  let closed = null;
  for (let k = 1; closed === null; k++) {
    const assembled = await run({ step: "assemble", plan, parts, k, carried });
    if (assembled.done) closed = assembled.closed;
    else carried = assembled.state;
  }
  const committed = await run({ step: "commit", plan, closed });
  if (!committed.ok) throw new Error(`close job commit refused: ${JSON.stringify(committed.error)}`);
  await run({ step: "clean" });
  return steps;
}

/** Every page of a listing from `first` (at most `max`), each page one invocation. */
async function walk(ours, token, first, max = Number.POSITIVE_INFINITY) {
  const pages = [];
  for (let path = first; path && pages.length < max; ) {
    const res = await invoke(ours, "GET", path, { token });
    pages.push(res);
    if (res.status !== 200) break;
    path = nextOf(res.headers);
  }
  return pages;
}

function within(op, limits) {
  const over = [];
  if (op.statuses.some((s) => s < 200 || s >= 300)) over.push(`status ${op.statuses.join("/")}`);
  if (op.params > limits.boundParameters) over.push("parameters");
  if (op.sqlBytes > limits.sqlBytes) over.push("SQL bytes");
  if (op.valueBytes > limits.valueBytes) over.push("value bytes");
  if (op.queries > limits.queriesPerInvocation) over.push("queries");
  if (op.heapBytes > TARGETS.heapBytes) over.push("heap");
  if (op.cpuMs > TARGETS.cpuMs) over.push("CPU");
  if (op.d1CallMs > TARGETS.d1CallMs) over.push("D1 call duration");
  return over;
}

export async function run({ stateDir, options, print }) {
  const staffCount = options.staff ?? 10_000;
  print("Starting our Worker (wrangler dev, bench/counting-entry.ts, D1_LIMITS_ENFORCED=1) and seeding it by SQL…");
  const ours = await startOurs(stateDir);
  const limits = await expectStatus(ours.request("GET", "/__bench/limits"), 200, "limits");
  const world = await seed(ours, staffCount, print);
  const small = await seedSmall(ours, print);
  const { org, admin, path, locationIds, plan } = world;
  const range = { organizationId: org.id, startDate: FIRST_DAY, endDate: LAST_DAY };
  const ops = [];
  const began = Date.now();
  const step = (label) => print(`  ${((Date.now() - began) / 1000).toFixed(0)} s: ${label}…`);

  step("pay lines, every page");
  const payLines = await walk(ours, admin, `/api/timesheets/pay?${query({ startDate: FIRST_DAY, endDate: LAST_DAY, limit: 500 })}`);
  ops.push(summarize("pay lines, all pages (500 staff a page)", payLines));
  print(`  pay lines heap MB by page: ${payLines.map((p) => mb(p.heapBytes)).join(" ")}`);
  if (process.env.SCALE_ONLY_PAY) {
    print(`  pay lines CPU ms by page: ${payLines.map((p) => p.cpuMs.toFixed(0)).join(" ")}`);
    return;
  }
  const payEmployees = payLines.reduce((n, p) => n + (p.body?.employees?.length ?? 0), 0);
  step(`pay lines at ${SMALL_STAFF} staff`);
  const smallLines = await walk(ours, small.admin, `/api/timesheets/pay?${query({ startDate: FIRST_DAY, endDate: LAST_DAY, limit: 500 })}`);
  ops.push(summarize(`pay lines, ${SMALL_STAFF}-staff organization`, smallLines));
  const smallEmployees = smallLines.reduce((n, p) => n + (p.body?.employees?.length ?? 0), 0);

  step("close of the biweekly period");
  const periodPath = `${path}/pay-periods/${FIRST_DAY}`;
  // A close above CLOSE_IN_REQUEST_MAX_EMPLOYEES answers 202 with a job (issue 50): the bench then works its steps
  // itself, each one invocation as the Workflow runs it (POST /__bench/close-step, traced), and counts them.
  await ours.request("POST", "/__bench/close-jobs-by-bench");
  const closeStarted = performance.now();
  const close = await invoke(ours, "POST", `${periodPath}/close`, { token: admin, body: { approveAll: true } });
  ops.push(summarize("close the period (approve all)", [close], close.status === 202 ? `202: job ${close.body?.id}` : ""));
  const closeSteps = close.status === 202 ? await workCloseJob(ours, close.body.id) : [];
  if (closeSteps.length) {
    // Each kind of step on its own (the employee pages' worst): which one a figure of the summed row comes from.
    const kinds = [...new Set(closeSteps.map((s) => s.step))].map((kind) =>
      summarize(
        kind,
        closeSteps.filter((s) => s.step === kind),
      ),
    );
    print(
      `  close job steps: ${kinds
        .map(
          (k) =>
            `${k.label} heap ${mb(k.heapBytes)} MB cpu ${k.cpuMs.toFixed(0)} ms (old ${k.sampledMs.toFixed(0)}) ` +
            `d1 call ${k.d1CallMs.toFixed(0)} ms rows ${k.rowsRead} value ${k.valueBytes} B queries ${k.queries}`,
        )
        .join("; ")}`,
    );
    const jobAnswer = await invoke(ours, "GET", `${path}/jobs/${close.body.id}`, { token: admin });
    ops.push(
      summarize(
        `close job steps (${closeSteps.length}): plan, employee pages, assemble steps, commit, clean`,
        closeSteps,
        `job ${jobAnswer.body?.status}`,
      ),
    );
  }
  world.closeFigures = { steps: Math.max(1, closeSteps.length), ms: performance.now() - closeStarted };
  step("payroll JSON and CSV");
  const payrollJson = await invoke(ours, "GET", `${periodPath}/payroll`, { token: admin });
  ops.push(summarize("payroll JSON", [payrollJson], `${kb(Buffer.byteLength(payrollJson.text))} answered`));
  const payrollCsv = await invoke(ours, "GET", `${periodPath}/payroll?format=csv`, { token: admin });
  ops.push(summarize("payroll CSV", [payrollCsv], `${kb(Buffer.byteLength(payrollCsv.text))} answered`));

  step("export job (if the document has it)");
  const document = await expectStatus(ours.request("GET", "/api/openapi.json"), 200, "openapi");
  const exportPath = Object.keys(document.paths ?? {}).find((p) => /\/exports$/.test(p));
  if (exportPath) {
    // The job's request (ExportCreate: kind, format, dates, an optional location or employee): a year of the
    // timesheets of the 2,000-staff location. Then every chunk of the job, each one invocation as the queue consumer
    // works it (POST /__bench/export-chunk, traced; the real consumer leaves the bench's jobs alone), and its download.
    const exportUrl = exportPath.replace(/\{organization_?[iI]d\}/, org.id);
    await expectStatus(ours.request("POST", "/__bench/exports-by-bench"), 200, "exports by bench");
    const job = await invoke(ours, "POST", exportUrl, {
      token: admin,
      body: { kind: "TIMESHEETS", format: "csv", startDate: addDays(LAST_DAY, -364), endDate: LAST_DAY, locationId: locationIds[0] },
    });
    ops.push(summarize(`export job request: a year of timesheets, ${plan.big}-staff location`, [job], `POST ${exportPath}: ${job.status}`));
    step("export job chunks");
    const chunks = [];
    for (let i = 0; i < 1000 && job.body?.id; i++) {
      const chunk = await invoke(ours, "POST", "/__bench/export-chunk", { body: { exportId: job.body.id } });
      chunks.push(chunk);
      if (chunk.status !== 200 || chunk.body?.next !== "more") break;
    }
    const finished = await invoke(ours, "GET", `${exportUrl}/${job.body?.id}`, { token: admin });
    ops.push(
      summarize(
        `export job chunks (${chunks.length}), a year of timesheets, ${plan.big}-staff location`,
        chunks,
        `${finished.body?.status}: ${finished.body?.rowsWritten} rows, ${kb(finished.body?.bytes ?? 0)}`,
      ),
    );
    const download = await invoke(ours, "GET", `${exportUrl}/${job.body?.id}/download`, { token: admin });
    ops.push(summarize("export download", [download], `${kb(Buffer.byteLength(download.text))} answered`));
  } else {
    print("  export job: skipped: not built (no …/exports path in /api/openapi.json)");
  }

  step("timesheet listing and reports");
  ops.push(
    summarize(
      `timesheets listing, first ${LISTING_PAGES} pages of 500`,
      await walk(ours, admin, `/api/timesheets?${query({ ...range, limit: 500 })}`, LISTING_PAGES),
    ),
  );
  ops.push(
    summarize("timesheets totals (limit=1)", [
      await invoke(ours, "GET", `/api/timesheets?${query({ ...range, limit: 1 })}`, { token: admin }),
    ]),
  );
  ops.push(
    summarize(
      `timesheet reports, first ${LISTING_PAGES} pages of 500`,
      await walk(ours, admin, `/api/timesheets/reports?${query({ ...range, limit: 500 })}`, LISTING_PAGES),
    ),
  );
  ops.push(
    summarize(
      `timesheet reports by employee, first ${LISTING_PAGES} pages`,
      await walk(ours, admin, `/api/timesheets/reports/employees?${query({ ...range, limit: 500 })}`, LISTING_PAGES),
    ),
  );

  step(`availability and eligibility at a ${plan.big}-staff location`);
  const availabilityPages = await walk(
    ours,
    admin,
    `${path}/availability?${query({ startDate: FIRST_DAY, endDate: LAST_DAY, locationId: locationIds[0], limit: 500 })}`,
  );
  ops.push(summarize(`availability expansion, ${plan.big}-staff location, 2 weeks`, availabilityPages));
  print(`  availability heap MB by page: ${availabilityPages.map((p) => mb(p.heapBytes)).join(" ")}`);
  const slot = { startTime: "2026-03-07T09:00:00Z", endTime: "2026-03-07T13:00:00Z" };
  ops.push(
    summarize(`eligibility, ${plan.big}-staff location`, [
      await invoke(ours, "GET", `${path}/locations/${locationIds[0]}/schedules/eligibility?${query(slot)}`, { token: admin }),
    ]),
  );

  step(`week view of a ${plan.week}-staff location`);
  ops.push(
    summarize(
      `week view, ${plan.week}-staff location, every page`,
      await walk(
        ours,
        admin,
        `${path}/locations/${locationIds[1]}/schedules?${query({ startDate: FIRST_DAY, endDate: WEEK_END, limit: 500 })}`,
      ),
    ),
  );

  step("event feed");
  ops.push(
    summarize("event feed: oldest page and a page mid-log (500)", [
      await invoke(ours, "GET", `${path}/events?${query({ limit: 500 })}`, { token: admin }),
      await invoke(ours, "GET", `${path}/events?${query({ after: Math.floor(EVENTS / 2), limit: 500 })}`, { token: admin }),
    ]),
  );

  step("Cron passes");
  // In pages of ACCRUAL_PAGE balances (src/jobs/accrual-pass.ts PassPage), each one invocation, until none is left.
  const accrualStarted = performance.now();
  const accrualPages = [];
  let afterId = null;
  do {
    const accrual = await invoke(ours, "POST", "/__bench/accrual-pass", {
      body: { now: "2026-03-16T12:00:00Z", page: { balances: ACCRUAL_PAGE, afterId } },
    });
    accrualPages.push(accrual);
    afterId = accrual.body?.report?.nextAfterId ?? null;
  } while (afterId !== null && accrualPages.length < 1000);
  world.accrualFigures = { steps: accrualPages.length, ms: performance.now() - accrualStarted };
  const entries = accrualPages.reduce((n, a) => n + (a.body?.report?.entries ?? 0), 0);
  ops.push(
    summarize(
      `accrual pass (10 Mondays due per balance), ${accrualPages.length} pages of ${ACCRUAL_PAGE} balances`,
      accrualPages,
      `${entries} entries; last page: ${passNote(accrualPages.at(-1))}`,
    ),
  );
  print(`  accrual pass heap MB by page: ${accrualPages.map((p) => mb(p.heapBytes)).join(" ")}`);
  const attendance = await invoke(ours, "POST", "/__bench/attendance-pass", { body: { now: "2026-03-13T12:00:00Z" } });
  ops.push(summarize("attendance pass (a weekday's entries)", [attendance], passNote(attendance)));

  const verdicts = ops.map((op) => ({ op, over: within(op, limits) }));
  print("");
  print(
    table(
      [
        "operation",
        "calls",
        "round trips (max/call)",
        "queries/call",
        "max SQL bytes",
        "max params",
        "max value bytes",
        "peak heap MB",
        "CPU ms (max/call)",
        "sampled ms (old)",
        "workerd CPU ms",
        "D1 call ms (max)",
        "wall ms",
        "rows read",
        "within",
      ],
      verdicts.map(({ op, over }) => [
        op.label,
        String(op.invocations),
        `${op.roundTrips} (${op.maxRoundTrips})`,
        String(op.queries),
        String(op.sqlBytes),
        String(op.params),
        String(op.valueBytes),
        mb(op.heapBytes),
        op.cpuMs.toFixed(0),
        op.sampledMs.toFixed(0),
        op.processCpuMs.toFixed(0),
        op.d1CallMs.toFixed(0),
        op.wallMs.toFixed(0),
        String(op.rowsRead),
        over.length ? `no: ${over.join(", ")}` : "yes",
      ]),
    ),
  );
  for (const op of ops.filter((o) => o.note)) print(`  ${op.label}: ${op.note}`);

  // Pay lines per employee at both sizes: CPU (the isolate), wall, D1 rows read and round trips.
  const perEmployee = (op, employees) => ({
    cpu: op.cpuTotalMs / employees,
    wall: op.wallMs / employees,
    rows: op.rowsRead / employees,
    trips: op.roundTrips / employees,
  });
  const big = perEmployee(ops[0], Math.max(payEmployees, 1));
  const little = perEmployee(ops[1], Math.max(smallEmployees, 1));
  const cpuRatio = big.cpu / little.cpu;
  print("");
  print(
    table(
      ["pay lines per employee", "CPU ms", "wall ms", "rows read", "round trips"],
      [
        [
          `${world.staff} staff (${payEmployees} employees paid)`,
          big.cpu.toFixed(3),
          big.wall.toFixed(3),
          big.rows.toFixed(1),
          big.trips.toFixed(4),
        ],
        [
          `${SMALL_STAFF} staff (${smallEmployees} employees paid)`,
          little.cpu.toFixed(3),
          little.wall.toFixed(3),
          little.rows.toFixed(1),
          little.trips.toFixed(4),
        ],
        [
          "ratio",
          `${cpuRatio.toFixed(2)}x`,
          `${(big.wall / little.wall).toFixed(2)}x`,
          `${(big.rows / little.rows).toFixed(2)}x`,
          `${(big.trips / little.trips).toFixed(2)}x`,
        ],
      ],
    ),
  );
  print(
    `  target: CPU per employee at ${world.staff} within ${TARGETS.payLinesRatio}x of ${SMALL_STAFF}: ${cpuRatio <= TARGETS.payLinesRatio ? "yes" : "no"}`,
  );

  const all = verdicts.every((v) => v.over.length === 0) && cpuRatio <= TARGETS.payLinesRatio;
  const maxOf = (key) => Math.max(...ops.map((o) => o[key]));
  print("");
  print(
    `scale: staff=${world.staff} ops=${ops.length} max_params=${maxOf("params")} max_sql_bytes=${maxOf("sqlBytes")} ` +
      `max_value_bytes=${maxOf("valueBytes")} max_queries_per_invocation=${maxOf("queries")} peak_heap_mb=${mb(maxOf("heapBytes"))} ` +
      `max_cpu_ms=${maxOf("cpuMs").toFixed(0)} max_d1_call_ms=${maxOf("d1CallMs").toFixed(0)} close_steps=${world.closeFigures?.steps ?? 0} ` +
      `close_total_ms=${(world.closeFigures?.ms ?? 0).toFixed(0)} accrual_steps=${world.accrualFigures?.steps ?? 0} ` +
      `accrual_total_ms=${(world.accrualFigures?.ms ?? 0).toFixed(0)} all_within_limits=${all ? "yes" : "no"}`,
  );
}

function passNote(res) {
  const report = res.body?.report;
  return report ? `report ${JSON.stringify(report)}` : `status ${res.status}: ${res.text.slice(0, 200)}`;
}
