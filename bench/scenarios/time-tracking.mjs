// Issue 3, "Measured, not guessed": clock-in/clock-out cycles and shift-state reads, ours vs the baseline, and the
// D1 round trips of a clock-in counted on a traced request.

import { writeFileSync } from "node:fs";
import { CLOCK_IN_READS, CLOCK_IN_WRITES, CLOCK_OUT_READS, CLOCK_OUT_WRITES, EXCEPTION_WRITE } from "../baseline/statements.js";
import { STAFF_WRITE_GUARD } from "../baseline/write-guard.js";
import { accessToken, expectStatus, seedOrganization } from "../lib/api.mjs";
import { describeEventCost, eventCost, withoutEventInserts } from "../lib/event-trips.mjs";
import { measure } from "../lib/load.mjs";
import { printCpuPerRequest, printProfile } from "../lib/profile-report.mjs";
import { startProfile } from "../lib/profiler.mjs";
import { shareRecording } from "../lib/recording.mjs";
import { comparisonTableOfThree, table } from "../lib/report.mjs";
import { inGroups } from "../lib/seeding.mjs";
import { copyData, describeRoundTrip, startBaseline, startHonoOnly, startOurs, traced } from "../lib/workers.mjs";

export const name = "time-tracking";
export const description = "clock-in/clock-out cycles and shift-state reads, ours vs hono-only vs the baseline (issues 3, 36)";

/** Near the location, as a phone would send it; the location has no fence, so it is recorded, not judged. */
const POSITION = { latitude: 40.748817, longitude: -73.985428, accuracy: 12 };
/** Requests in flight while seeding (the load phases have their own bound). */
const SEED_PARALLELISM = 8;

/**
 * Through our API, as a partner would: an organization with defaults, one unfenced New York location with a break
 * type, and staff members assigned to it, each with their own access token. Groups: `cyclers` clock in and out under
 * load, `warmers` do the same during warm-up (so each measured connection starts with no open shift), `readers` hold
 * a finished shift with a break plus an open one (what shift-state reads), and `tracer` is used for the counted
 * requests.
 */
async function seed(ours, connections) {
  const r = ours.request;
  const { org, admin } = await seedOrganization(r, { name: "Bench Coffee", timezone: "America/New_York" });
  const location = await expectStatus(
    r("POST", `/api/organizations/${org.id}/locations`, { token: admin, body: { name: "Flatiron", timezone: "America/New_York" } }),
    201,
    "location",
  );
  const breakType = await expectStatus(
    r("POST", `/api/organizations/${org.id}/locations/${location.id}/breaks`, {
      token: admin,
      body: { name: "Coffee", durationMinutes: 15, frequencyMinutes: 240, paid: true, mandatory: false },
    }),
    201,
    "break type",
  );
  const roleId = org.defaults.roles[0].id;
  const member = async (label) => {
    const staff = await expectStatus(
      r("POST", `/api/organizations/${org.id}/staffmembers`, {
        token: admin,
        body: { name: label, locationIds: [location.id], accessRoleName: "Employee" },
      }),
      201,
      `staff member ${label}`,
    );
    return {
      id: staff.id,
      token: await accessToken(r, { organizationId: org.id, employeeId: staff.id }),
      path: `/api/organizations/${org.id}/staffmembers/${staff.id}/locations/${location.id}`,
    };
  };
  const labels = (prefix) => Array.from({ length: connections }, (_, i) => `${prefix} ${i + 1}`);
  const cyclers = await inGroups(labels("Cycler"), SEED_PARALLELISM, member);
  const warmers = await inGroups(labels("Warmer"), SEED_PARALLELISM, member);
  const readers = await inGroups(labels("Reader"), SEED_PARALLELISM, member);
  const [tracer, bystander] = await inGroups(["Tracer", "Bystander"], 2, member);

  await inGroups(readers, SEED_PARALLELISM, async (m) => {
    const step = (action, body) => expectStatus(r("POST", `${m.path}/${action}`, { token: m.token, body }), 200, `reader ${action}`);
    await step("clock-in", { roleId, ...POSITION });
    await step("break-start", { typeId: breakType.id, ...POSITION });
    await step("break-end", POSITION);
    await step("clock-out", POSITION);
    await step("clock-in", { roleId, ...POSITION });
  });
  return { org, location, roleId, cyclers, warmers, readers, tracer, bystander };
}

/** The round trips of one clock-in, clock-out and shift-state of our Worker, and whether authorising reads D1. */
async function countRoundTrips(ours, world) {
  const { tracer, bystander, roleId } = world;
  const as = (m) => ({ token: m.token });
  const clockIn = await traced(ours, "POST", `${tracer.path}/clock-in`, { ...as(tracer), body: { roleId, ...POSITION } });
  const state = await traced(ours, "GET", `${tracer.path}/shift-state`, as(tracer));
  const clockOut = await traced(ours, "POST", `${tracer.path}/clock-out`, { ...as(tracer), body: POSITION });
  const keyed = await traced(ours, "POST", `${tracer.path}/clock-in`, {
    ...as(tracer),
    body: { roleId, ...POSITION },
    headers: { "Idempotency-Key": `bench-${Date.now()}` },
  });
  await expectStatus(ours.request("POST", `${tracer.path}/clock-out`, { ...as(tracer), body: POSITION }), 200, "tracer clock-out");
  // Authorisation: the tracer's valid token on someone else's punch (403), and a token the Worker never issued (401).
  const forbidden = await traced(ours, "POST", `${bystander.path}/clock-in`, { ...as(tracer), body: { roleId, ...POSITION } });
  const unauthenticated = await traced(ours, "POST", `${tracer.path}/clock-in`, { token: "not-a-token", body: { roleId, ...POSITION } });
  return { clockIn, clockOut, state, keyed, forbidden, unauthenticated };
}

/** A request's round trips on its organization's shard: without the directory read that chose the shard. */
const tenantTrips = (res) => res.roundTrips.filter((t) => t.kind !== "directory");

/** The traced requests whose statements the baseline and the hono-only Worker replay (bench/baseline/statements.js). */
const recordedOperations = (counted) => ({
  "clock-in": counted.clockIn,
  "clock-out": counted.clockOut,
  "shift-state": counted.state,
  "clock-in with Idempotency-Key": counted.keyed,
});

const headers = (token) => ({ "content-type": "application/json", authorization: `Bearer ${token}` });
const cycle = (m, roleId) => [
  {
    label: "clock-in",
    method: "POST",
    path: `${m.path}/clock-in`,
    headers: headers(m.token),
    body: JSON.stringify({ roleId, ...POSITION }),
  },
  { label: "clock-out", method: "POST", path: `${m.path}/clock-out`, headers: headers(m.token), body: JSON.stringify(POSITION) },
];
const read = (m) => [
  { label: "shift-state", method: "GET", path: `${m.path}/shift-state`, headers: { authorization: `Bearer ${m.token}` } },
];

/**
 * Each phase (cycles, then reads) runs against our Worker and then the baseline, back to back, each preceded by its
 * own discarded warm-up: the two figures of a row are measured as close in time as possible.
 */
async function drive(servers, world, { connections, durationSeconds, warmupSeconds, profile }, print) {
  const phases = [
    {
      what: "clock-in/clock-out cycles",
      warm: (i) => cycle(world.warmers[i], world.roleId),
      load: (i) => cycle(world.cyclers[i], world.roleId),
    },
    { what: "shift-state reads", warm: (i) => read(world.readers[i]), load: (i) => read(world.readers[i]) },
  ];
  const results = Object.fromEntries(servers.map((s) => [s.name, { errors: 0, timeouts: 0 }]));
  const profiles = [];
  for (const phase of phases) {
    for (const server of servers) {
      const base = { url: server.url, connections };
      if (warmupSeconds > 0) await measure({ ...base, durationSeconds: warmupSeconds, requestsFor: phase.warm });
      print(`  ${server.name}: ${durationSeconds} s of ${phase.what}`);
      const profiling = profile ? await startProfile(server.inspectorPort) : null;
      const measured = await measure({ ...base, durationSeconds, requestsFor: phase.load });
      if (profiling) {
        const requests = Object.values(measured.byLabel).reduce((n, r) => n + r.count, 0);
        profiles.push({ what: phase.what, server: server.name, requests, profile: await profiling.stop() });
      }
      Object.assign(results[server.name], measured.byLabel);
      results[server.name].errors += measured.errors;
      results[server.name].timeouts += measured.timeouts;
    }
  }
  return { ...results, profiles };
}

export async function run({ stateDir, options, print }) {
  const { connections } = options;
  print("Starting our Worker (wrangler dev, bench/counting-entry.ts) and seeding it through the API…");
  // Without the D1 limits guard (src/data/limited-d1.ts): production runs without it, and neither the baseline nor the
  // hono-only Worker has one, so on the measured path it would be a bench artefact of ours alone (issue 36).
  const ours = await startOurs(stateDir, "ours", { limitsEnforced: false });
  const world = await seed(ours, connections);
  const counted = await countRoundTrips(ours, world);
  // BENCH_DUMP_TRACES=file: our traced requests (statements and bound values).
  if (process.env.BENCH_DUMP_TRACES) writeFileSync(process.env.BENCH_DUMP_TRACES, JSON.stringify(counted, null, 2));
  for (const [what, res, status] of [
    ["clock-in", counted.clockIn, 200],
    ["clock-out", counted.clockOut, 200],
    ["shift-state", counted.state, 200],
    ["clock-in with Idempotency-Key", counted.keyed, 200],
    ["clock-in for another staff member", counted.forbidden, 403],
    ["clock-in with a foreign token", counted.unauthenticated, 401],
  ]) {
    if (res.status !== status) throw new Error(`traced ${what}: expected ${status}, got ${res.status} ${res.text.slice(0, 300)}`);
  }

  print("Starting the baseline Worker (bench/baseline) and copying the seeded rows into its D1…");
  const baseline = await startBaseline(stateDir);
  const copied = await copyData(ours, baseline);
  print(`  copied ${copied.rows} rows in ${copied.statements} INSERT statements`);
  print("Starting the hono-only Worker (bench/hono-only) and copying the seeded rows into its D1…");
  const honoOnly = await startHonoOnly(stateDir);
  await copyData(ours, honoOnly);
  // The SQL both replay is this run's trace of ours (bench/baseline/recording.js); their values are their own.
  await shareRecording(recordedOperations(counted), [baseline, honoOnly]);
  for (const server of [baseline, honoOnly]) {
    const smoke = await server.request("GET", `${world.readers[0].path}/shift-state`);
    if (smoke.status !== 200 || !smoke.body?.openShift)
      throw new Error(`${server.name} shift-state: ${smoke.status} ${smoke.text.slice(0, 300)}`);
  }
  const others = { baseline: await countOthers(baseline, world), "hono-only": await countOthers(honoOnly, world) };

  print(
    `Load: ${connections} connections, ${options.warmupSeconds} s warm-up per phase (discarded); ours, hono-only, baseline back to back`,
  );
  const {
    ours: oursResult,
    "hono-only": honoResult,
    baseline: baselineResult,
    profiles,
  } = await drive([ours, honoOnly, baseline], world, options, print);

  print("");
  print(
    comparisonTableOfThree(
      ["clock-in", "clock-out", "shift-state"].map((label) => ({
        label,
        results: [oursResult[label], honoResult[label], baselineResult[label]],
      })),
    ),
  );
  for (const [who, result] of [
    ["ours", oursResult],
    ["hono-only", honoResult],
    ["baseline", baselineResult],
  ]) {
    if (result.errors || result.timeouts) print(`  ${who}: ${result.errors} connection errors, ${result.timeouts} timeouts`);
  }

  const trips = (res) => res.roundTrips.length;
  /** Round trips of a request that must reach the D1 primary; the others may be answered by a read replica. */
  const primaryTrips = (res) => res.roundTrips.filter((t) => t.kind === undefined || t.kind === "primary").length;
  /** The replica-eligible read of the directory naming the request's shard (none with one shard). */
  const directoryTrips = (res) => res.roundTrips.filter((t) => t.kind === "directory").length;
  /** D1's meta.rows_read / rows_written summed over a request ("?" where a call's result carries no meta). */
  const sumOf = (roundTrips, field) => {
    const values = roundTrips.flatMap((t) => t[field]);
    return values.some((v) => v === null) ? "?" : String(values.reduce((a, b) => a + b, 0));
  };
  print("");
  print("D1 round trips per request (counted on traced requests to our Worker):");
  const rows = [
    ["clock-in", counted.clockIn],
    ["clock-out", counted.clockOut],
    ["shift-state", counted.state],
    ["clock-in with Idempotency-Key", counted.keyed],
    ["clock-in for another staff member", counted.forbidden],
    ["clock-in with a foreign token", counted.unauthenticated],
  ];
  print(
    table(
      ["request", "status", "round trips", "directory", "replica-eligible", "primary", "statements", "rows read", "rows written"],
      rows.map(([label, res]) => [
        label,
        String(res.status),
        String(trips(res)),
        String(directoryTrips(res)),
        String(trips(res) - primaryTrips(res) - directoryTrips(res)),
        String(primaryTrips(res)),
        String(res.roundTrips.reduce((n, t) => n + t.statements.length, 0)),
        sumOf(res.roundTrips, "rowsRead"),
        sumOf(res.roundTrips, "rowsWritten"),
      ]),
    ),
  );
  for (const [label, res] of rows) {
    if (res.roundTrips.length === 0) continue;
    print(`  ${label}:`);
    res.roundTrips.forEach((trip, i) =>
      print(`    ${i + 1}. [${trip.kind ?? "primary"}${trip.binding ? ` ${trip.binding}` : ""}] ${describeRoundTrip(trip)}`),
    );
  }
  const punchPrimary = Math.max(primaryTrips(counted.clockIn), primaryTrips(counted.clockOut));
  print(
    `D1 primary round trips per punch: ${punchPrimary} (target: 1 — the read may be served by a replica), ` +
      `shift-state: ${primaryTrips(counted.state)} (target: 0): ` +
      `${punchPrimary <= 1 && primaryTrips(counted.state) === 0 ? "met" : "NOT met"}`,
  );
  const authReads = tenantTrips(counted.forbidden).length + tenantTrips(counted.unauthenticated).length;
  const clockInTrips = tenantTrips(counted.clockIn).length;
  print(
    `D1 round trips per clock-in on its shard: ${clockInTrips} (target: at most 2 — one read batch, one atomic write batch): ` +
      `${clockInTrips <= 2 ? "met" : "NOT met"}; plus ${directoryTrips(counted.clockIn)} replica-eligible directory read ` +
      "naming the organization's shard (none with one shard)",
  );
  print(
    `Database reads to authorise: ${authReads} (a refused request reads ${authReads === 0 ? "nothing" : "something"} on its shard, ` +
      "the token carries the permissions; a 403 still reads the directory to choose the shard, an invalid token nothing)",
  );
  print(
    describeEventCost(
      "Events per clock-in",
      eventCost(counted.clockIn, [CLOCK_IN_READS, [STAFF_WRITE_GUARD, ...CLOCK_IN_WRITES, EXCEPTION_WRITE]]),
    ),
  );
  print(
    describeEventCost("Events per clock-out", eventCost(counted.clockOut, [CLOCK_OUT_READS, [STAFF_WRITE_GUARD, ...CLOCK_OUT_WRITES]])),
  );
  const drift = sameAcross(counted, others).filter((s) => !s.same);
  if (drift.length === 0) {
    print(
      "Baseline statements: recorded from this run's trace of our Worker, its outbox statements (event INSERT, wake read) aside " +
        "(clock-in, clock-out, shift-state, clock-in with Idempotency-Key); the baseline's and the hono-only Worker's own traces " +
        "send them in the same round trips (clock-in, clock-out, shift-state): same statements: yes.",
    );
  } else {
    print(`Baseline statements DIFFER from our Worker for: ${drift.map((d) => d.op).join(", ")} (same statements: no).`);
    print("Ours sends (per round trip); the baseline's handler sends another shape (bench/baseline/time-tracking.js):");
    for (const { op, actual } of drift) print(`  ${op}: ${JSON.stringify(actual, null, 2).replaceAll("\n", "\n  ")}`);
  }
  const cpuTargets = [];
  for (const { what, server, profile } of profiles) {
    if (server === "ours") printProfile(print, `our Worker during ${what}`, profile);
  }
  for (const what of new Set(profiles.map((p) => p.what))) {
    const [ours, middle, base] = ["ours", "hono-only", "baseline"].map((name) =>
      profiles.find((p) => p.what === what && p.server === name),
    );
    if (ours && base) {
      const cpu = printCpuPerRequest(print, what, ours, base, middle);
      if (cpu) cpuTargets.push({ what, ...cpu });
    }
  }
  printTargets(print, { ours: oursResult, middle: honoResult, base: baselineResult }, cpuTargets);
}

/**
 * Issue 36's targets on clock-in, clock-out and shift-state: ours ≤ 1.15× the hono-only Worker and ≤ 1.3× the
 * baseline, in p50 and (with --profile) in CPU per request; throughput ≥ 0.75× the baseline's.
 */
function printTargets(print, { ours, middle, base }, cpu) {
  const x = (a, b) => a / b;
  const verdict = (ok) => (ok ? "met" : "NOT met");
  print("");
  print("Targets (issue 36): ours ≤ 1.15× hono-only and ≤ 1.3× baseline, in p50 and CPU per request; throughput ≥ 0.75× baseline:");
  for (const label of ["clock-in", "clock-out", "shift-state"]) {
    const [o, m, b] = [ours[label], middle[label], base[label]];
    if (!o || !m || !b) continue;
    const p50 = [x(o.p50, m.p50), x(o.p50, b.p50)];
    const rps = x(o.rps, b.rps);
    print(
      `  ${label}: p50 ${p50[0].toFixed(2)}× hono-only ${verdict(p50[0] <= 1.15)}, ${p50[1].toFixed(2)}× baseline ${verdict(p50[1] <= 1.3)}; ` +
        `throughput ${rps.toFixed(2)}× ${verdict(rps >= 0.75)}`,
    );
  }
  for (const { what, ours: o, middle: m, base: b } of cpu) {
    print(
      `  CPU per request during ${what}: ${x(o, m).toFixed(2)}× hono-only ${verdict(x(o, m) <= 1.15)}, ` +
        `${x(o, b).toFixed(2)}× baseline ${verdict(x(o, b) <= 1.3)}`,
    );
  }
}

/** The statements of the baseline's or the hono-only Worker's own traced clock-in, shift-state and clock-out. */
async function countOthers(server, world) {
  const { tracer, roleId } = world;
  const as = { token: tracer.token };
  const clockIn = await traced(server, "POST", `${tracer.path}/clock-in`, { ...as, body: { roleId, ...POSITION } });
  const state = await traced(server, "GET", `${tracer.path}/shift-state`, as);
  const clockOut = await traced(server, "POST", `${tracer.path}/clock-out`, { ...as, body: POSITION });
  for (const [what, res] of [
    ["clock-in", clockIn],
    ["shift-state", state],
    ["clock-out", clockOut],
  ]) {
    if (res.status !== 200) throw new Error(`${server.name} traced ${what}: ${res.status} ${res.text.slice(0, 300)}`);
  }
  return { clockIn, state, clockOut };
}

/** Our statements (the outbox's aside) against the baseline's and the hono-only Worker's, operation by operation. */
function sameAcross(counted, others) {
  const ours = (res) => JSON.stringify(withoutEventInserts(tenantTrips(res).map((t) => t.statements)));
  const theirs = (res) => JSON.stringify(res.roundTrips.map((t) => t.statements));
  return Object.entries(others).flatMap(([name, o]) =>
    [
      ["clock-in", counted.clockIn, o.clockIn],
      ["clock-out", counted.clockOut, o.clockOut],
      ["shift-state", counted.state, o.state],
    ].map(([op, a, b]) => ({ op: `${op} (${name})`, same: ours(a) === theirs(b), actual: b.roundTrips.map((t) => t.statements) })),
  );
}
