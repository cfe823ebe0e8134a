// Issue 32, "Labor cost": a 200-staff location's week (shifts charged to cost codes, some switched mid-day, some paid
// at wage rates; a published schedule for the week). Each entry of READS is one measured GET, ours against the
// frameworkless baseline (bench/baseline/labor-cost.js: the same statements, the same pure rules of src/domain):
// labor cost; schedule cost of the worked week and of a future week (every entry projected), each skipped when its
// route is not in the served document. Then demand upserts of 2,000 intervals:
// round trips, rows written and p50, ours against the baseline sending the same statements.
import { writeFileSync } from "node:fs";
import { isDeepStrictEqual } from "node:util";
import { demandTrips } from "../baseline/demand-statements.js";
import { laborCostTrips } from "../baseline/labor-cost-statements.js";
import { locationRead, projectionRead } from "../baseline/schedule-cost-statements.js";
import { writeGuardFor } from "../baseline/write-guard.js";
import { expectStatus, organizationTokens, seedOrganization } from "../lib/api.mjs";
import { measure, percentile } from "../lib/load.mjs";
import { printCpuPerRequest, printProfile } from "../lib/profile-report.mjs";
import { startProfile } from "../lib/profiler.mjs";
import { shareRecording } from "../lib/recording.mjs";
import { comparisonTable, ms, table } from "../lib/report.mjs";
import { addDays, ENTRY_COLUMNS, weekEntryRows } from "../lib/seeding.mjs";
import { copyData, describeRoundTrip, startBaseline, startOurs, traced } from "../lib/workers.mjs";

export const name = "labor-cost";
export const description =
  "a 200-staff location's week: labor cost and schedule cost vs a frameworkless baseline; demand upserts of 2,000 intervals (issue 32)";

const STAFF = 200;
/** A Monday; the week measured is WEEK.startDate … WEEK.endDate (UTC location, California rules: Monday workweeks). */
const WEEK = { startDate: "2026-03-02", endDate: "2026-03-08" };
/** A Monday four weeks or more ahead: its published entries are all still to come, so schedule cost projects them. */
const FUTURE_WEEK = (() => {
  const day = new Date(Date.now() + 28 * 86_400_000);
  const startDate = new Date(day.getTime() - ((day.getUTCDay() + 6) % 7) * 86_400_000).toISOString().slice(0, 10);
  return { startDate, endDate: new Date(Date.parse(startDate) + 6 * 86_400_000).toISOString().slice(0, 10) };
})();
const CODES = 4;
const WAGE_RATES = 20;
const LOAD_TOKENS = 32;
const DEMAND_INTERVALS = 2000;
const DEMAND_SAMPLES = 20;
const SEED_CHUNK = 1000;

const sum = (xs) => xs.reduce((a, b) => a + (b ?? 0), 0);
const x = (v) => (Number.isFinite(v) ? `${v.toFixed(2)}x` : "-");

/**
 * Monday to Saturday: 8 to 10.5 hours from 08:00; every third day switched mid-day (a second shift from 12:00 on the
 * next code, whose last minutes are the day's overtime); Saturday's hours past 40 are weekly overtime.
 */
function generateShifts(staff, locationId, roleId, codes, rates) {
  const seeds = [];
  staff.forEach((member, i) => {
    const rate = rates.get(member.id);
    for (let day = 0; day < 6; day++) {
      const date = addDays(WEEK.startDate, day);
      const minutes = 480 + ((i + day) % 6) * 30;
      const code = codes[(i + day) % codes.length];
      const base = {
        employeeId: member.id,
        locationId,
        roleId,
        utcOffset: 0,
        hourlyWage: rate?.hourlyRate ?? 18 + (i % 10),
        wageRateId: rate?.id ?? null,
      };
      const start = Date.parse(`${date}T08:00:00Z`);
      if ((i + day) % 3 === 0) {
        seeds.push({ ...base, startAt: start, minutes: 240, costCodeId: code });
        seeds.push({ ...base, startAt: start + 240 * 60_000, minutes: minutes - 240, costCodeId: codes[(i + day + 1) % codes.length] });
      } else {
        const lunch = (i + day) % 4 !== 0;
        seeds.push({
          ...base,
          startAt: start,
          minutes,
          costCodeId: code,
          breaks: lunch ? [{ afterMinutes: 240, minutes: 30, paid: false, name: "Lunch" }] : [],
        });
      }
    }
  });
  return seeds;
}

/** A week's published schedule: one 8-hour entry a day for each staff member (what schedule cost projects). */
const entryRows = (org, locationId, staff, roleId, now, week = WEEK) =>
  weekEntryRows({
    organizationId: org.id,
    locationId,
    staff,
    roleOf: () => roleId,
    week,
    timeZone: "UTC",
    isDraft: false,
    now,
    startHour: (i) => 6 + (i % 8),
  });
async function seed(ours, print) {
  const r = ours.request;
  const started = Date.now();
  const { org, admin } = await seedOrganization(r, { name: "Bench Labor", timezone: "UTC" });
  const path = `/api/organizations/${org.id}`;
  const location = await expectStatus(
    r("POST", `${path}/locations`, { token: admin, body: { name: "Plant", timezone: "UTC" } }),
    201,
    "location",
  );
  const records = Array.from({ length: STAFF }, (_, i) => ({ externalId: `emp-${1001 + i}`, name: `Staff ${i + 1}` }));
  await expectStatus(r("POST", `${path}/staffmembers/sync`, { token: admin, body: { records } }), 200, "staff sync");
  const staff = await expectStatus(r("GET", `${path}/staffmembers?limit=500`, { token: admin }), 200, "staff list");
  if (staff.length !== STAFF) throw new Error(`seeded ${staff.length} staff, not ${STAFF}`);
  const codes = [];
  for (let i = 0; i < CODES; i++) {
    const code = await expectStatus(
      r("POST", `${path}/cost-codes`, { token: admin, body: { code: `CC${i + 1}`, name: `Code ${i + 1}` } }),
      201,
      "cost code",
    );
    await expectStatus(r("PUT", `${path}/cost-codes/${code.id}/assignments`, { token: admin, body: { all: true } }), 200, "assignment");
    codes.push(code.id);
  }
  const rates = new Map();
  for (const member of staff.slice(0, WAGE_RATES)) {
    const body = { employeeId: member.id, hourlyRate: 31.5, effectiveFrom: "2026-01-01" };
    rates.set(member.id, await expectStatus(r("POST", `${path}/wage-rates`, { token: admin, body }), 201, "wage rate"));
  }
  const roleId = org.defaults.roles[0].id;
  const seeds = generateShifts(staff, location.id, roleId, codes, rates);
  for (let i = 0; i < seeds.length; i += SEED_CHUNK) {
    await expectStatus(
      r("POST", "/__bench/seed-shifts", { body: { organizationId: org.id, shifts: seeds.slice(i, i + SEED_CHUNK) } }),
      200,
      "seed",
    );
  }
  // This week's (worked) and a future week's (projected by schedule cost).
  const entries = [
    ...entryRows(org, location.id, staff, roleId, Date.now()),
    ...entryRows(org, location.id, staff, roleId, Date.now(), FUTURE_WEEK),
  ];
  await expectStatus(
    r("POST", "/__bench/load", { body: { tables: [{ table: "schedule_entries", columns: ENTRY_COLUMNS, rows: entries }] } }),
    200,
    "entries",
  );
  await expectStatus(
    r("POST", `${path}/pay-rules`, {
      token: admin,
      body: { name: "California", effectiveFrom: "2026-01-01", preset: "CALIFORNIA", workweekStartsOn: "Monday" },
    }),
    201,
    "rule set",
  );
  print(
    `  seeded ${STAFF} staff, ${CODES} cost codes, ${WAGE_RATES} wage rates, ${seeds.length} shifts and ${entries.length} published entries ` +
      `(${WEEK.startDate} … ${WEEK.endDate}) in ${((Date.now() - started) / 1000).toFixed(1)} s`,
  );
  return { org, admin, path, location, base: `${path}/locations/${location.id}`, shifts: seeds.length };
}

/** A request's round trips on its organization's shard (the baseline has no directory read choosing it). */
const oursTrips = (res) =>
  res.roundTrips
    .filter((t) => t.kind !== "directory")
    .map((t) => ({ call: t.call, pairs: t.statements.map((sql, i) => [sql, t.params[i]]) }));

function d1Figures(res) {
  const statements = res.roundTrips.flatMap((t) => t.statements.map((sql, k) => ({ sql, read: t.rowsRead[k], written: t.rowsWritten[k] })));
  return {
    trips: res.roundTrips.length,
    statements: statements.length,
    read: sum(statements.map((s) => s.read)),
    written: sum(statements.map((s) => s.written)),
  };
}

/**
 * The measured reads: one entry each, `path` on ours, `baselinePath` on the baseline (null: ours alone, with a note),
 * `expectedTrips` the baseline's statements to compare with ours' trace (null: not compared). An entry whose route
 * is not in the served document is skipped with a note.
 */
function reads(world) {
  const range = `startDate=${WEEK.startDate}&endDate=${WEEK.endDate}`;
  const laborCost = `/api/timesheets/labor-cost?${range}&groupBy=date,costCode`;
  return [
    {
      label: "labor cost, week by date and cost code",
      route: "/api/timesheets/labor-cost",
      path: laborCost,
      baselinePath: `${laborCost}&organizationId=${world.org.id}`,
      expectedTrips: (res) => {
        // Pages of 500: the 200 staff are one page.
        // Per chunk of ids: shifts, time off, premiums owed (bench/baseline/labor-cost-statements.js).
        const shifts = res.roundTrips.filter((t) => t.kind !== "directory")[1]?.params.filter((_, i) => i % 3 === 0) ?? [];
        const ids = shifts.flatMap((p) => p.slice(3));
        return laborCostTrips({ organizationId: world.org.id, ...WEEK }, [ids]);
      },
    },
    ...[
      ["schedule cost, worked week", WEEK],
      ["schedule cost, future week (projected)", FUTURE_WEEK],
    ].map(([label, week]) => ({
      label,
      route: "/api/organizations/{organizationId}/locations/{locationId}/schedules/cost",
      path: `${world.base}/schedules/cost?startDate=${week.startDate}&endDate=${week.endDate}`,
      baselinePath: `${world.base}/schedules/cost?startDate=${week.startDate}&endDate=${week.endDate}`,
      expectedTrips: (res) => {
        // The location (UTC: its days are UTC days), then the projection's batch, read at ours' `now`.
        const [first, second] = res.roundTrips.filter((t) => t.kind !== "directory");
        const request = { organizationId: world.org.id, locationId: world.location.id, ...week };
        const range = { start: Date.parse(week.startDate), end: Date.parse(week.endDate) + 86_400_000 };
        return [
          { call: first.call, pairs: locationRead(request) },
          { call: "batch", pairs: projectionRead({ ...request, range, now: second?.params[2]?.[15] }) },
        ];
      },
    })),
  ];
}

/** 2,000 quarter-hour intervals from the week's start, values varying with `round` (each upload rewrites them). */
const demandUpload = (round) => ({
  metric: "SALES",
  kind: "FORECAST",
  intervals: Array.from({ length: DEMAND_INTERVALS }, (_, i) => ({
    start: new Date(Date.parse(`${WEEK.startDate}T00:00:00Z`) + i * 900_000).toISOString().replace(".000Z", "Z"),
    value: 100 + ((i * 7 + round) % 50),
  })),
});

async function demandLatencies(server, world) {
  const latencies = [];
  for (let i = 0; i < DEMAND_SAMPLES; i++) {
    const started = process.hrtime.bigint();
    const res = await server.request("PUT", `${world.base}/demand`, { token: world.admin, body: demandUpload(i) });
    latencies.push(Number(process.hrtime.bigint() - started) / 1e6);
    if (res.status !== 200 || res.body.upserted !== DEMAND_INTERVALS)
      throw new Error(`demand on ${server.name}: ${res.status} ${res.text.slice(0, 300)}`);
  }
  return latencies.sort((a, b) => a - b);
}

export async function run({ stateDir, options, print }) {
  print("Starting our Worker (wrangler dev, bench/counting-entry.ts) and seeding it…");
  // Without the D1 limits guard, as the baseline it is compared with (production runs without it; issue 36).
  const ours = await startOurs(stateDir, "ours", { limitsEnforced: false });
  const world = await seed(ours, print);
  const document = await expectStatus(ours.request("GET", "/api/openapi.json"), 200, "document");
  // The demand first: the baseline gets a copy of it, so schedule cost's sales (FORECAST SALES) are the same on both.
  const demandTrace = await traced(ours, "PUT", `${world.base}/demand`, { token: world.admin, body: demandUpload(0) });
  if (demandTrace.status !== 200) throw new Error(`demand: ${demandTrace.status} ${demandTrace.text.slice(0, 300)}`);
  const served = [];
  for (const entry of reads(world)) {
    if (!document.paths?.[entry.route]) {
      print(`  ${entry.label}: skipped, ${entry.route} is not in the served document (built on another branch)`);
      continue;
    }
    const res = await traced(ours, "GET", entry.path, { token: world.admin });
    if (res.status !== 200) throw new Error(`${entry.label}: ${res.status} ${res.text.slice(0, 300)}`);
    served.push({ ...entry, res });
  }

  print("Starting the baseline Worker (bench/baseline) and copying the seeded rows into its D1…");
  const baseline = await startBaseline(stateDir);
  const copied = await copyData(ours, baseline);
  print(`  copied ${copied.rows} rows in ${copied.statements} INSERT statements`);
  // Every statement the baseline sends is this run's trace of ours (bench/baseline/recording.js): the labor cost read,
  // schedule cost's two round trips (the worked week's), and the demand's batch with its event and wake read.
  const laborCostRead = served.find((entry) => entry.route === "/api/timesheets/labor-cost");
  const scheduleCostRead = served.find((entry) => entry.label === "schedule cost, worked week");
  await shareRecording(
    {
      demand: demandTrace,
      ...(laborCostRead ? { "labor cost": laborCostRead.res } : {}),
      ...(scheduleCostRead ? { "schedule cost": scheduleCostRead.res } : {}),
    },
    [baseline],
    { withOutbox: ["demand"] },
  );

  const checks = [];
  // BENCH_DUMP_TRACES=file: each compared request's statements, the baseline's then ours, to bring bench/baseline/ up to date.
  if (process.env.BENCH_DUMP_TRACES) {
    const dump = served
      .filter((entry) => entry.expectedTrips)
      .map((entry) => ({ label: entry.label, expected: entry.expectedTrips(entry.res), ours: oursTrips(entry.res) }));
    writeFileSync(process.env.BENCH_DUMP_TRACES, JSON.stringify(dump, null, 2));
  }
  for (const entry of served) {
    if (!entry.baselinePath) {
      checks.push([entry.label, "no baseline yet", "-"]);
      continue;
    }
    const theirs = await baseline.request("GET", entry.baselinePath);
    const sameBody = theirs.status === 200 && isDeepStrictEqual(theirs.body, entry.res.body);
    if (theirs.status !== 200) print(`  ${entry.label}: the baseline answered ${theirs.status} ${theirs.text.slice(0, 300)}`);
    const sameStatements = entry.expectedTrips ? isDeepStrictEqual(entry.expectedTrips(entry.res), oursTrips(entry.res)) : null;
    checks.push([entry.label, sameStatements === null ? "not compared" : sameStatements ? "yes" : "NO", sameBody ? "yes" : "NO"]);
    if (sameStatements === false) {
      print(`  ${entry.label}: statements differ; ours:`);
      for (const t of oursTrips(entry.res)) print(`    ${t.call}: ${t.pairs.map(([sql]) => sql.slice(0, 160)).join(" | ")}`);
    }
  }
  const masked = (v) => (typeof v === "number" && Math.abs(v - Date.now()) < 3_600_000 ? "<now>" : v);
  const maskDemand = (trips) =>
    trips.map((t) => ({
      ...t,
      pairs: t.pairs.map(([sql, values]) => [
        sql.replace(/\b\d{13}\b/g, "<now>"),
        /^insert into "events"/.test(sql)
          ? values.map((v, i) => (i === 0 ? "<event id>" : i === 5 ? "<event data>" : masked(v)))
          : /^insert into "audit_log"/.test(sql)
            ? values.map((v, i) => (i === 4 ? "<country>" : i === 5 ? "<event id>" : masked(v)))
            : values.map(masked),
      ]),
    }));
  const expectedDemand = maskDemand(
    demandTrips({
      organizationId: world.org.id,
      locationId: world.location.id,
      upload: demandUpload(0),
      guard: writeGuardFor(world.admin),
      now: "<now>",
    }),
  );
  const sameDemand = isDeepStrictEqual(expectedDemand, maskDemand(oursTrips(demandTrace)));
  checks.push([`demand upsert of ${DEMAND_INTERVALS}`, sameDemand ? "yes" : "NO", "-"]);
  if (!sameDemand) {
    const [mine, expected] = [maskDemand(oursTrips(demandTrace)), expectedDemand].map((trips) => trips.flatMap((t) => t.pairs));
    const at = mine.findIndex((pair, k) => !isDeepStrictEqual(pair, expected[k]));
    print(`  demand: statements differ (${mine.length} ours, ${expected.length} the baseline's); the first at ${at}:`);
    print(`    ours:     ${JSON.stringify(mine[at]).slice(0, 600)}`);
    print(`    baseline: ${JSON.stringify(expected[at]).slice(0, 600)}`);
  }

  print(
    `Load: ${options.connections} connections, ${options.warmupSeconds} s warm-up (discarded), ${options.durationSeconds} s measured per phase`,
  );
  const tokens = await organizationTokens(ours.request, world.org.id, LOAD_TOKENS);
  const phase = async (label, server, requestFor) => {
    const requestsFor = (i) => Array.from({ length: tokens.length }, (_, j) => ({ label, ...requestFor(tokens[(i + j) % tokens.length]) }));
    const base = { url: server.url, connections: options.connections, requestsFor, timeoutSeconds: 60 };
    if (options.warmupSeconds > 0) await measure({ ...base, durationSeconds: options.warmupSeconds });
    print(`  ${options.durationSeconds} s of ${label} (${server.name})`);
    const profiling = options.profile ? await startProfile(server.inspectorPort) : null;
    const measured = (await measure({ ...base, durationSeconds: options.durationSeconds })).byLabel[label];
    if (profiling) profiles.push({ what: label, server: server.name, requests: measured?.count ?? 0, profile: await profiling.stop() });
    return measured;
  };
  const profiles = [];
  const operations = [];
  for (const entry of served) {
    const mine = await phase(entry.label, ours, (token) => ({
      method: "GET",
      path: entry.path,
      headers: { authorization: `Bearer ${token}` },
    }));
    const theirs = entry.baselinePath ? await phase(entry.label, baseline, () => ({ method: "GET", path: entry.baselinePath })) : undefined;
    operations.push({ label: entry.label, ours: mine, baseline: theirs });
  }
  print(`  ${DEMAND_SAMPLES} demand upserts of ${DEMAND_INTERVALS} intervals, one after the other, on each`);
  const demandOurs = await demandLatencies(ours, world);
  const demandBaseline = await demandLatencies(baseline, world);

  print("");
  print(comparisonTable(operations));
  print("");
  print(
    table(
      ["operation", "ours p50 ms", "baseline p50 ms", "ours/baseline"],
      [
        [
          `demand upsert, ${DEMAND_INTERVALS} intervals`,
          ms(percentile(demandOurs, 0.5)),
          ms(percentile(demandBaseline, 0.5)),
          x(percentile(demandOurs, 0.5) / percentile(demandBaseline, 0.5)),
        ],
      ],
    ),
  );
  print("");
  print(table(["request", "same statements as the baseline", "same answer"], checks));
  print("");
  print("D1 per request (ours, traced):");
  const figures = [...served.map((e) => [e.label, e.res]), [`demand upsert, ${DEMAND_INTERVALS} intervals`, demandTrace]].map(
    ([label, res]) => {
      const f = d1Figures(res);
      return [label, String(f.trips), String(f.statements), String(f.read), String(f.written)];
    },
  );
  print(table(["request", "round trips", "statements", "rows read", "rows written"], figures));
  for (const [label, res] of [...served.map((e) => [e.label, e.res]), ["demand upsert", demandTrace]]) {
    print(`  ${label}:`);
    res.roundTrips.forEach((trip, i) => print(`    ${i + 1}. ${describeRoundTrip(trip)}`));
  }
  const maxParams = Math.max(...demandTrace.roundTrips.flatMap((t) => t.params.map((p) => p.length)));
  const laborCost = operations.find((o) => o.label.startsWith("labor cost"));
  const summary = [
    laborCost
      ? `labor cost p50 ${x(laborCost.ours.p50 / laborCost.baseline.p50)} of the baseline (target ≤ 1.30x)`
      : "labor cost not measured",
    ...operations
      .filter((o) => o !== laborCost)
      .map((o) => `${o.label} p50 ${o.baseline ? x(o.ours.p50 / o.baseline.p50) : `${ms(o.ours.p50)} ms (no baseline)`}`),
    `demand ${DEMAND_INTERVALS} p50 ${x(percentile(demandOurs, 0.5) / percentile(demandBaseline, 0.5))}, ${d1Figures(demandTrace).trips} round trips, ${d1Figures(demandTrace).written} rows written, ≤ ${maxParams} parameters a statement`,
    `statements identical: ${checks.every((c) => c[1] !== "NO") ? "yes" : "NO"}`,
  ];
  for (const entry of served) {
    const mine = profiles.find((p) => p.what === entry.label && p.server === "ours");
    const theirs = profiles.find((p) => p.what === entry.label && p.server === "baseline");
    if (mine) printProfile(print, `our Worker during ${entry.label}`, mine.profile);
    if (mine && theirs) printCpuPerRequest(print, entry.label, mine, theirs);
  }
  print(`labor-cost summary: ${summary.join("; ")}`);
}
