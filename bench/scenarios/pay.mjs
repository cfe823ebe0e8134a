// Issue 18, "Scale and speed": 500 staff × 2 weeks (5,000 shifts) under California rules. Pay lines of the two
// weeks against the frameworkless baseline (bench/baseline/pay.js: the same statements, the same pure pay rules of
// src/domain, nothing around them) and against the raw SQL of the same request (its traced round trips sent again
// by the bench endpoint /__bench/replay, every row answered as JSON, no classification); the close of their biweekly
// period against the raw SQL of its reads; D1 round trips, rows read next to the shifts read, and the close's batch.
import { isDeepStrictEqual } from "node:util";
import { payLinesPageStatements, payLinesStatements } from "../baseline/pay-statements.js";
import { expectStatus, organizationTokens, seedOrganization } from "../lib/api.mjs";
import { measure, percentile } from "../lib/load.mjs";
import { printCpuPerRequest, printProfile } from "../lib/profile-report.mjs";
import { startProfile } from "../lib/profiler.mjs";
import { shareRecording } from "../lib/recording.mjs";
import { comparisonTable, ms, table } from "../lib/report.mjs";
import { addDays } from "../lib/seeding.mjs";
import { copyData, describeRoundTrip, startBaseline, startOurs, traced } from "../lib/workers.mjs";

export const name = "pay";
export const description =
  "500 staff × 2 weeks (5,000 shifts): pay lines vs a frameworkless baseline and the raw SQL, a pay period close vs the raw SQL (issues 18, 21)";

const STAFF = 500;
/** A Monday: the biweekly period measured is FIRST_DAY … FIRST_DAY + 13, and the workweeks are Monday to Sunday. */
const FIRST_DAY = "2026-03-02";
const LAST_DAY = "2026-03-15";
const SEED_CHUNK = 1000;
/** Closes measured one after the other (each after a reopen): a close is not a request one repeats under load. */
const CLOSES = 12;
/** Tokens the pay lines load takes turns among, as many users' requests would: one token alone passes the rate limit. */
const LOAD_TOKENS = 32;

const sum = (xs) => xs.reduce((a, b) => a + (b ?? 0), 0);
const x = (v) => (Number.isFinite(v) ? `${v.toFixed(2)}x` : "-");

/** Weekdays of both weeks: 8 to 10.5 hours from 08:00 UTC (the location is in UTC), a 30-minute unpaid lunch on most. */
function generateShifts(staff, locationId, roleId) {
  const seeds = [];
  staff.forEach((member, i) => {
    for (let day = 0; day < 14; day++) {
      if (day % 7 >= 5) continue;
      const date = addDays(FIRST_DAY, day);
      const minutes = 480 + ((i + day) % 6) * 30;
      const lunch = (i + day) % 4 !== 0;
      seeds.push({
        employeeId: member.id,
        locationId,
        roleId,
        startAt: Date.parse(`${date}T08:00:00Z`),
        minutes,
        utcOffset: 0,
        hourlyWage: 18 + (i % 10),
        breaks: lunch ? [{ afterMinutes: 240, minutes: 30, paid: false, name: "Lunch" }] : [],
      });
    }
  });
  return seeds;
}

async function seed(ours, print) {
  const r = ours.request;
  const started = Date.now();
  const { org, admin } = await seedOrganization(r, { name: "Bench Payroll", timezone: "UTC" });
  const path = `/api/organizations/${org.id}`;
  const location = await expectStatus(
    r("POST", `${path}/locations`, { token: admin, body: { name: "Depot", timezone: "UTC" } }),
    201,
    "location",
  );
  const records = Array.from({ length: STAFF }, (_, i) => ({
    externalId: `emp-${1001 + i}`,
    name: `Staff ${i + 1}`,
    externalPayrollId: `pay-${i + 1}`,
  }));
  await expectStatus(r("POST", `${path}/staffmembers/sync`, { token: admin, body: { records } }), 200, "staff sync");
  const staff = await expectStatus(r("GET", `${path}/staffmembers?limit=500`, { token: admin }), 200, "staff list");
  if (staff.length !== STAFF) throw new Error(`seeded ${staff.length} staff, not ${STAFF}`);
  const seeds = generateShifts(staff, location.id, org.defaults.roles[0].id);
  for (let i = 0; i < seeds.length; i += SEED_CHUNK) {
    await expectStatus(
      r("POST", "/__bench/seed-shifts", { body: { organizationId: org.id, shifts: seeds.slice(i, i + SEED_CHUNK) } }),
      200,
      "seed",
    );
  }
  await expectStatus(
    r("POST", `${path}/pay-rules`, { token: admin, body: { name: "California", effectiveFrom: "2026-01-01", preset: "CALIFORNIA" } }),
    201,
    "rule set",
  );
  await expectStatus(
    r("PATCH", `${path}/pay-period-settings`, { token: admin, body: { frequency: "BIWEEKLY", anchorDate: FIRST_DAY } }),
    200,
    "settings",
  );
  print(
    `  seeded ${STAFF} staff (one sync) and ${seeds.length} shifts (${FIRST_DAY} … ${LAST_DAY}), California rules, biweekly periods, in ${((Date.now() - started) / 1000).toFixed(1)} s`,
  );
  return { org, admin, path, shifts: seeds.length };
}

/** rows read and returned of a traced request, and the rows of its shifts statement. */
function d1Figures(res) {
  const trips = res.roundTrips;
  const statements = trips.flatMap((t) =>
    t.statements.map((sql, k) => ({ sql, read: t.rowsRead[k], returned: t.rowsReturned[k], written: t.rowsWritten[k] })),
  );
  const shifts = statements.find((s) => /from "shifts"/i.test(s.sql) && /^\s*select/i.test(s.sql));
  return {
    trips: trips.length,
    statements: statements.length,
    read: sum(statements.map((s) => s.read)),
    written: sum(statements.map((s) => s.written)),
    shiftsRead: shifts?.read ?? null,
    shiftsReturned: shifts?.returned ?? null,
  };
}

/** Pages of 100 followed by their Link on ours and on the baseline: the same pages, whose staff are the whole page's. */
async function samePagesOf(ours, baseline, world, path, whole) {
  const employees = [];
  let next = path;
  for (let pages = 0; next && pages < 20; pages++) {
    const mine = await ours.request("GET", next, { token: world.admin });
    const theirs = await baseline.request("GET", `${next}&organizationId=${world.org.id}`);
    if (mine.status !== 200 || !isDeepStrictEqual(mine.body, theirs.body)) return false;
    employees.push(...mine.body.employees);
    next = /^<([^>]+)>; rel="next"$/.exec(mine.headers.get("link") ?? "")?.[1] ?? null;
    const theirNext = /^<([^>]+)>; rel="next"$/.exec(theirs.headers.get("link") ?? "")?.[1] ?? null;
    if ((next === null) !== (theirNext === null)) return false;
  }
  return next === null && isDeepStrictEqual(employees, whole);
}

export async function run({ stateDir, options, print }) {
  print("Starting our Worker (wrangler dev, bench/counting-entry.ts) and seeding it…");
  // Without the D1 limits guard, as the baseline it is compared with (production runs without it; issue 36).
  const ours = await startOurs(stateDir, "ours", { limitsEnforced: false });
  const world = await seed(ours, print);
  // One page of 500: the whole organization, as before pay lines were paged by staff member.
  const linesPath = `/api/timesheets/pay?startDate=${FIRST_DAY}&endDate=${LAST_DAY}&limit=${STAFF}`;

  const lines = await traced(ours, "GET", linesPath, { token: world.admin });
  if (lines.status !== 200) throw new Error(`pay lines: ${lines.status} ${lines.text.slice(0, 300)}`);
  const totals = lines.body.totals;
  const lineCount = sum(lines.body.employees.map((e) => e.lines.length));
  const replayBody = { trips: lines.roundTrips.map(({ call, statements, params }) => ({ call, statements, params })) };
  const replay = await expectStatus(ours.request("POST", "/__bench/replay", { body: replayBody }), 200, "replay");

  print("Starting the baseline Worker (bench/baseline) and copying the seeded rows into its D1…");
  const baseline = await startBaseline(stateDir);
  const copied = await copyData(ours, baseline);
  print(`  copied ${copied.rows} rows in ${copied.statements} INSERT statements`);
  // The baseline's SQL is this run's trace of ours (bench/baseline/recording.js): the page of 500, and a page after a
  // cursor (pages of 100, as samePagesOf walks them).
  const firstOfFive = await ours.request("GET", linesPath.replace(`limit=${STAFF}`, "limit=100"), { token: world.admin });
  const nextPath = /^<([^>]+)>; rel="next"$/.exec(firstOfFive.headers.get("link") ?? "")?.[1];
  if (!nextPath) throw new Error(`pay lines of 100: no next page (${firstOfFive.status} ${firstOfFive.text.slice(0, 200)})`);
  const nextPage = await traced(ours, "GET", nextPath, { token: world.admin });
  await shareRecording({ "pay lines": lines, "pay lines, next page": nextPage }, [baseline]);
  const baselinePath = `${linesPath}&organizationId=${world.org.id}`;
  const range = { organizationId: world.org.id, startDate: FIRST_DAY, endDate: LAST_DAY, limit: STAFF };
  const pageIds = lines.body.employees.map((e) => e.employeeId);
  const expectedTrips = [
    { call: "batch", pairs: payLinesStatements(range) },
    { call: "batch", pairs: payLinesPageStatements(range, pageIds) },
  ];
  const ourTrips = lines.roundTrips
    .filter((t) => t.kind !== "directory")
    .map((t) => ({ call: t.call, pairs: t.statements.map((sql, i) => [sql, t.params[i]]) }));
  const sameStatements = JSON.stringify(expectedTrips) === JSON.stringify(ourTrips);
  const baselineLines = await baseline.request("GET", baselinePath);
  const samePages = await samePagesOf(ours, baseline, world, linesPath.replace(`limit=${STAFF}`, "limit=100"), lines.body.employees);
  const sameResponse =
    baselineLines.status === 200 && isDeepStrictEqual(baselineLines.body, lines.body) && !lines.headers.get("link") && samePages;

  print(
    `Load: ${options.connections} connections, ${options.warmupSeconds} s warm-up (discarded), ${options.durationSeconds} s measured per phase`,
  );
  const tokens = await organizationTokens(ours.request, world.org.id, LOAD_TOKENS);
  const profiles = [];
  const phase = async (label, server, requestFor, what = label) => {
    const requestsFor = (i) => Array.from({ length: tokens.length }, (_, j) => ({ label, ...requestFor(tokens[(i + j) % tokens.length]) }));
    const base = { url: server.url, connections: options.connections, requestsFor, timeoutSeconds: 60 };
    if (options.warmupSeconds > 0) await measure({ ...base, durationSeconds: options.warmupSeconds });
    print(`  ${options.durationSeconds} s of ${label}`);
    const profiling = options.profile ? await startProfile(server.inspectorPort) : null;
    const measured = (await measure({ ...base, durationSeconds: options.durationSeconds })).byLabel[label];
    if (profiling) profiles.push({ what, server: server.name, requests: measured?.count ?? 0, profile: await profiling.stop() });
    return measured;
  };
  const linesLabel = "pay lines, 2 weeks";
  const oursLines = await phase(linesLabel, ours, (token) => ({
    method: "GET",
    path: linesPath,
    headers: { authorization: `Bearer ${token}` },
  }));
  const baselineLinesLoad = await phase("pay lines (baseline)", baseline, () => ({ method: "GET", path: baselinePath }), linesLabel);
  const rawLines = await phase("raw SQL of pay lines", ours, () => ({
    method: "POST",
    path: "/__bench/replay",
    headers: { "content-type": "application/json" },
    body: JSON.stringify(replayBody),
  }));

  // Closes: the first approves all 500 timesheets in its batch; each later one follows a reopen and adds adjustments.
  const periodPath = `${world.path}/pay-periods/${FIRST_DAY}`;
  const closeTimes = [];
  let firstClose;
  let laterClose;
  for (let i = 0; i < CLOSES; i++) {
    if (i > 0)
      await expectStatus(ours.request("POST", `${periodPath}/reopen`, { token: world.admin, body: { reason: "bench" } }), 200, "reopen");
    const started = performance.now();
    const res = await traced(ours, "POST", `${periodPath}/close`, { token: world.admin, body: { approveAll: true } });
    closeTimes.push(performance.now() - started);
    if (res.status !== 200) throw new Error(`close ${i + 1}: ${res.status} ${res.text.slice(0, 300)}`);
    if (i === 0) firstClose = res;
    if (i === 1) laterClose = res;
  }
  const closeReadTrips = laterClose.roundTrips.filter((t) => !t.statements.some((s) => /^\s*(insert|update|delete)/i.test(s)));
  const rawCloseReadsBody = { trips: closeReadTrips.map(({ call, statements, params }) => ({ call, statements, params })) };
  const rawCloseTimes = [];
  for (let i = 0; i < CLOSES; i++) {
    const started = performance.now();
    await expectStatus(ours.request("POST", "/__bench/replay", { body: rawCloseReadsBody }), 200, "replay close reads");
    rawCloseTimes.push(performance.now() - started);
  }
  const payroll = await ours.request("GET", `${periodPath}/payroll`, { token: world.admin });
  const payrollCsv = await ours.request("GET", `${periodPath}/payroll?format=csv`, { token: world.admin });
  const snapshot = await expectStatus(
    ours.request("POST", "/__bench/sql", {
      body: {
        sql: "SELECT length(snapshot) AS bytes FROM pay_period_snapshots WHERE organization_id = ? ORDER BY version DESC LIMIT 1",
        params: [world.org.id],
      },
    }),
    200,
    "snapshot size",
  );

  print("");
  print(comparisonTable([{ label: linesLabel, ours: oursLines, baseline: baselineLinesLoad }]));
  print(
    `  baseline: bench/baseline/pay.js — the same round trips (statements ${sameStatements ? "identical" : "DIFFER"} to this run's trace of ` +
      `ours, SQL and values), src/domain's computePay, the same response (${sameResponse ? "identical" : "DIFFERS"}); no framework, ` +
      "validation, authentication or drizzle.",
  );
  if (!sameStatements) print(`  ours: ${JSON.stringify(ourTrips)}\n  baseline: ${JSON.stringify(expectedTrips)}`);
  print("");
  print(comparisonTable([{ label: linesLabel, ours: oursLines, baseline: rawLines }]).replaceAll("baseline", "raw SQL "));
  print(
    `  pay lines: GET ${linesPath} — ${lines.body.employees.length} staff, ${lineCount} lines, ${totals.regularMinutes} regular / ` +
      `${totals.overtimeMinutes} overtime / ${totals.doubleTimeMinutes} double-time minutes, ${totals.penaltyHours} penalty hours, gross ${totals.grossPay}.`,
  );
  print(
    `  raw SQL: the same round trips with the same values (POST /__bench/replay), ${sum(replay.rows.map((r) => r.length))} rows as JSON, no classification.`,
  );

  const closeSorted = [...closeTimes.slice(1)].sort((a, b) => a - b);
  const rawSorted = [...rawCloseTimes].sort((a, b) => a - b);
  print("");
  print(
    table(
      ["close (sequential, traced)", "p50 ms", "first ms", "raw SQL of its reads p50 ms", "ratio"],
      [
        [
          `${CLOSES - 1} closes after a reopen`,
          ms(percentile(closeSorted, 0.5)),
          ms(closeTimes[0]),
          ms(percentile(rawSorted, 0.5)),
          x(percentile(closeSorted, 0.5) / percentile(rawSorted, 0.5)),
        ],
      ],
    ),
  );

  print("");
  print("D1 per request (traced; rows read summed over its statements):");
  const rows = [
    ["pay lines", lines],
    ["close, first (approves 500 in its batch)", firstClose],
    ["close, after a reopen", laterClose],
  ].map(([label, res]) => {
    const f = d1Figures(res);
    return [
      label,
      String(f.trips),
      String(f.statements),
      String(f.read),
      String(f.written),
      `${f.shiftsRead}/${f.shiftsReturned}`,
      x(f.read / f.shiftsReturned),
    ];
  });
  print(table(["request", "round trips", "statements", "rows read", "rows written", "shifts: read/returned", "rows read / shifts"], rows));
  for (const [label, res] of [
    ["pay lines", lines],
    ["close, after a reopen", laterClose],
  ]) {
    print(`  ${label}:`);
    res.roundTrips.forEach((trip, i) => {
      const figures = trip.statements.map((_, k) => `${trip.rowsRead[k] ?? "?"} read/${trip.rowsReturned[k] ?? "?"} returned`).join(", ");
      print(`    ${i + 1}. ${describeRoundTrip(trip)} (${figures})`);
    });
  }
  const linesFigures = d1Figures(lines);
  const computeTrips = lines.roundTrips.filter(
    (t) => t.kind !== "directory" && !t.statements.some((q) => /organization_directory/.test(q)),
  );
  print(
    `  Pay lines: ${computeTrips.length} round trip(s) for the computation (plus the shard directory's read every request makes); ` +
      `${linesFigures.read} rows read for ${linesFigures.shiftsReturned} shifts = ${x(linesFigures.read / linesFigures.shiftsReturned)}: the shifts, ` +
      `the page's staff rows (the page statement reads the organization's ${STAFF} staff to choose them), the rule set and the organization. The range is two whole ` +
      "workweeks: the days read around it (8 before, 7 after, for the workweeks' regular rates) hold no shift.",
  );
  const maxParams = Math.max(
    ...laterClose.roundTrips.flatMap((t) => t.params.map((p) => p.length)),
    ...firstClose.roundTrips.flatMap((t) => t.params.map((p) => p.length)),
  );
  const closeBatch = laterClose.roundTrips.find(
    (t) => t.call === "batch" && t.statements.some((s) => /insert into "pay_period_snapshots"/i.test(s)),
  );
  print(
    `  The close writes in one batch of ${closeBatch?.statements.length ?? "?"} statements (one D1 transaction); at most ${maxParams} bound ` +
      `parameters in any statement (D1's cap is 100). Snapshot stored once: ${snapshot.results[0]?.bytes ?? "?"} bytes packed (gzip, base64); ` +
      `payroll JSON ${payroll.text.length} bytes, CSV ${payrollCsv.text.length} bytes, read from it without recomputing.`,
  );

  for (const { what, server, profile } of profiles) {
    if (server === "ours" && what === linesLabel) printProfile(print, `our Worker during ${what}`, profile);
  }
  const [ourProfile, baseProfile] = ["ours", "baseline"].map((name) => profiles.find((p) => p.what === linesLabel && p.server === name));
  if (ourProfile && baseProfile) printCpuPerRequest(print, linesLabel, ourProfile, baseProfile);
}
