// Issue 10: the week view of a 200-staff location (1,400 entries a week) and a publish of a week of drafts, ours vs
// the baseline (the same statements by hand, bench/baseline/schedules.js); D1 round trips, rows_read and p50/p99.
import { writeFileSync } from "node:fs";
import { isDeepStrictEqual } from "node:util";
import { publishTrips, resetDraftsStatement, weekViewTrips } from "../baseline/schedule-statements.js";
import { writeGuardFor } from "../baseline/write-guard.js";
import { expectStatus, organizationTokens, seedOrganization } from "../lib/api.mjs";
import { measure, percentile } from "../lib/load.mjs";
import { printCpuPerRequest, printProfile } from "../lib/profile-report.mjs";
import { startProfile } from "../lib/profiler.mjs";
import { shareRecording } from "../lib/recording.mjs";
import { comparisonTable, ms, table } from "../lib/report.mjs";
import { ENTRY_COLUMNS, inGroups, weekEntryRows } from "../lib/seeding.mjs";
import { copyData, describeRoundTrip, startBaseline, startOurs, traced } from "../lib/workers.mjs";

export const name = "schedules";
export const description = "a 200-staff location: week view of 1,400 entries and a publish of a week of drafts (issue 10)";

const STAFF = 200;
const ZONE = "America/New_York";
/** The published week (before the US DST change of 8 March) and the draft week after it. */
const PUBLISHED = { startDate: "2026-03-02", endDate: "2026-03-08" };
const DRAFTS = { startDate: "2026-03-09", endDate: "2026-03-15" };
const PAGE_LIMIT = 500;
/** Access tokens the load takes turns with: 96 × 600 requests a minute is well above what the Worker serves here. */
const LOAD_TOKENS = 96;
const PUBLISH_SAMPLES = 20;
const PARALLELISM = 8;

/** One entry a day for each staff member, 8 hours from a start between 06:00 and 13:00 local. */
const entryRows = (org, location, staff, week, isDraft, now) =>
  weekEntryRows({
    organizationId: org.id,
    locationId: location.id,
    staff,
    roleOf: (member) => member.roleId,
    week,
    timeZone: ZONE,
    isDraft,
    now,
    startHour: (i) => 6 + (i % 8),
  });

async function seed(ours, print) {
  const r = ours.request;
  const started = Date.now();
  const { org, admin } = await seedOrganization(r, { name: "Bench Diner", timezone: ZONE });
  const location = await expectStatus(
    r("POST", `/api/organizations/${org.id}/locations`, { token: admin, body: { name: "Diner", timezone: ZONE, country: "US" } }),
    201,
    "location",
  );
  const roleId = org.defaults.roles[0].id;
  const staff = await inGroups(
    Array.from({ length: STAFF }, (_, i) => i),
    PARALLELISM,
    async (i) => {
      const body = { name: `Staff ${i + 1}`, locationIds: [location.id], accessRoleName: "Employee" };
      const created = await expectStatus(r("POST", `/api/organizations/${org.id}/staffmembers`, { token: admin, body }), 201, `staff ${i}`);
      return { id: created.id, roleId };
    },
  );
  const now = Date.now();
  const rows = [...entryRows(org, location, staff, PUBLISHED, false, now), ...entryRows(org, location, staff, DRAFTS, true, now)];
  await expectStatus(
    r("POST", "/__bench/load", { body: { tables: [{ table: "schedule_entries", columns: ENTRY_COLUMNS, rows }] } }),
    200,
    "load entries",
  );
  print(
    `  seeded ${STAFF} staff through the API and ${rows.length} entries (a published week and a draft week) in ${((Date.now() - started) / 1000).toFixed(1)} s`,
  );
  return { org, admin, location, base: `/api/organizations/${org.id}/locations/${location.id}` };
}

const nextOf = (headers) => /<([^>]+)>;\s*rel="next"/.exec(headers.get("Link") ?? "")?.[1] ?? null;
const sum = (values) => values.reduce((a, b) => a + (b ?? 0), 0);
/** A request's round trips on its organization's shard (the baseline has no directory read choosing it). */
const oursTrips = (res) =>
  res.roundTrips
    .filter((t) => t.kind !== "directory")
    .map((t) => ({ call: t.call, pairs: t.statements.map((sql, i) => [sql, t.params[i]]) }));

async function walk(ours, world, firstPath) {
  const pages = [];
  for (let path = firstPath; path && pages.length < 20; ) {
    const res = await traced(ours, "GET", path, { token: world.admin });
    if (res.status !== 200) throw new Error(`week view: ${res.status} ${res.text.slice(0, 300)}`);
    pages.push({ path, res });
    path = nextOf(res.headers);
  }
  return pages;
}

const reset = (server, world) =>
  expectStatus(server.request("POST", "/__bench/exec", { body: resetDraftsStatement(world.location.id, DRAFTS) }), 200, "reset drafts");

/** PUBLISH_SAMPLES publishes of the draft week on one server, each after the week is put back to drafts. */
async function publishLatencies(server, world) {
  const latencies = [];
  for (let i = 0; i < PUBLISH_SAMPLES; i++) {
    await reset(server, world);
    const started = process.hrtime.bigint();
    const res = await server.request("POST", `${world.base}/schedules/publish`, { token: world.admin, body: DRAFTS });
    latencies.push(Number(process.hrtime.bigint() - started) / 1e6);
    if (res.status !== 200 || res.body.publishedEntries !== 7 * STAFF)
      throw new Error(`publish on ${server.name}: ${res.status} ${res.text.slice(0, 300)}`);
  }
  return latencies.sort((a, b) => a - b);
}

export async function run({ stateDir, options, print }) {
  print("Starting our Worker and seeding it…");
  // Without the D1 limits guard, as the baseline it is compared with (production runs without it; issue 36).
  const ours = await startOurs(stateDir, "ours", { limitsEnforced: false });
  const world = await seed(ours, print);
  const viewPath = `${world.base}/schedules?startDate=${PUBLISHED.startDate}&endDate=${PUBLISHED.endDate}&limit=${PAGE_LIMIT}`;
  const pages = await walk(ours, world, viewPath);
  const publish = await traced(ours, "POST", `${world.base}/schedules/publish`, { token: world.admin, body: DRAFTS });
  if (publish.status !== 200) throw new Error(`publish: ${publish.status} ${publish.text.slice(0, 300)}`);

  print("Starting the baseline Worker and copying the rows…");
  const baseline = await startBaseline(stateDir);
  await reset(ours, world);
  await copyData(ours, baseline);
  // Every statement the baseline sends is this run's trace of ours (bench/baseline/recording.js): the week view's, and
  // the publish's with its event and wake read.
  if (pages.length < 2) throw new Error(`week view: ${pages.length} page(s), the recording needs a page after a cursor`);
  await shareRecording({ "week view": pages[0].res, "week view, next page": pages[1].res, publish }, [baseline], {
    withOutbox: ["publish"],
  });

  const drift = [];
  pages.forEach(({ path, res }, i) => {
    const expected = weekViewTrips(new URL(path, "http://127.0.0.1"), world.org.id, world.location.id);
    if (!isDeepStrictEqual(expected, oursTrips(res))) drift.push({ what: `week view page ${i + 1}`, expected, actual: oursTrips(res) });
  });
  const expectedPublish = publishTrips(world.org.id, world.location.id, DRAFTS, ZONE, "<now>", writeGuardFor(world.admin));
  // The publish instant differs from run to run: values within an hour of now read "<now>" on both sides, and the
  // event's id and data (which names the instant) read as publishTrips' placeholders.
  const nearNow = (ms) => Math.abs(ms - Date.now()) < 3_600_000;
  const masked = (v) =>
    (typeof v === "number" && nearNow(v)) || (typeof v === "string" && /^\d{4}-\d\d-\d\dT/.test(v) && nearNow(Date.parse(v))) ? "<now>" : v;
  const maskedValues = (sql, values) =>
    /^insert into "events"/.test(sql)
      ? values.map((v, i) => (i === 0 ? "<event id>" : i === 5 ? "<event data>" : masked(v)))
      : /^insert into "audit_log"/.test(sql)
        ? values.map((v, i) => (i === 4 ? "<country>" : i === 5 ? JSON.stringify(["<event id>"]) : masked(v)))
        : values.map(masked);
  const actualPublish = oursTrips(publish).map((t) => ({ ...t, pairs: t.pairs.map(([sql, values]) => [sql, maskedValues(sql, values)]) }));
  if (!isDeepStrictEqual(expectedPublish, actualPublish)) drift.push({ what: "publish", expected: expectedPublish, actual: actualPublish });
  const mismatches = [];
  const answers = [];
  for (const { path } of pages) {
    const [a, b] = await Promise.all([ours.request("GET", path, { token: world.admin }), baseline.request("GET", path)]);
    if (a.status !== b.status || !isDeepStrictEqual(a.body, b.body) || a.headers.get("Link") !== b.headers.get("Link"))
      mismatches.push(path);
    if (process.env.BENCH_DUMP_TRACES && mismatches.at(-1) === path) answers.push({ path, ours: a.body, baseline: b.body });
  }
  // BENCH_DUMP_TRACES=file: every drifted round trip (ours, then the baseline's) and the answers that differ, to bring
  // bench/baseline/schedule-statements.js and schedules.js up to date.
  if (process.env.BENCH_DUMP_TRACES) writeFileSync(process.env.BENCH_DUMP_TRACES, JSON.stringify({ drift, answers }, null, 2));

  print("");
  print(`D1 per request (traced; read = meta.rows_read, returned = rows answered; ${7 * STAFF} entries a week, ${2 * 7 * STAFF} stored):`);
  const rowsOf = (res) => [
    sum(res.roundTrips.flatMap((t) => t.rowsRead)),
    sum(res.roundTrips.flatMap((t) => t.rowsReturned ?? [])),
    sum(res.roundTrips.flatMap((t) => t.rowsWritten)),
  ];
  print(
    table(
      ["request", "round trips", "statements", "rows read", "rows returned", "rows written"],
      [
        ...pages.map(({ res }, i) => [
          `week view page ${i + 1} (${res.body.length} entries)`,
          String(res.roundTrips.length),
          String(sum(res.roundTrips.map((t) => t.statements.length))),
          ...rowsOf(res).map(String),
        ]),
        [
          `publish (${publish.body.publishedEntries} entries)`,
          String(publish.roundTrips.length),
          String(sum(publish.roundTrips.map((t) => t.statements.length))),
          ...rowsOf(publish).map(String),
        ],
      ],
    ),
  );
  for (const [label, res] of [
    ["week view page 1", pages[0].res],
    ["publish", publish],
  ]) {
    print(`  ${label}:`);
    res.roundTrips.forEach((trip, i) =>
      print(`    ${i + 1}. ${describeRoundTrip(trip)} (read ${trip.rowsRead.join("/")}, returned ${(trip.rowsReturned ?? []).join("/")})`),
    );
  }

  const { connections, durationSeconds, warmupSeconds, profile } = options;
  // The requests take turns among many tokens: one would be answered 429 past the API's 600 a minute per token.
  const tokens = await organizationTokens(ours.request, world.org.id, LOAD_TOKENS);
  const requestsFor = (i) => {
    const start = i % pages.length;
    const list = [...pages.slice(start), ...pages.slice(0, start)];
    return Array.from({ length: Math.max(list.length, tokens.length) }, (_, j) => ({
      label: "week view page",
      method: "GET",
      path: list[j % list.length].path,
      headers: { authorization: `Bearer ${tokens[(i + j) % tokens.length]}` },
    }));
  };
  const results = {};
  const profiles = {};
  for (const server of [ours, baseline]) {
    const base = { url: server.url, connections, requestsFor, timeoutSeconds: 30 };
    if (warmupSeconds > 0) await measure({ ...base, durationSeconds: warmupSeconds });
    print(`  ${server.name}: ${durationSeconds} s of week view pages`);
    const profiling = profile ? await startProfile(server.inspectorPort) : null;
    results[server.name] = (await measure({ ...base, durationSeconds })).byLabel["week view page"];
    if (profiling) profiles[server.name] = { requests: results[server.name]?.count ?? 0, profile: await profiling.stop() };
  }
  print("");
  print(
    comparisonTable([
      { label: `week view page (${pages.length} pages of ≤${PAGE_LIMIT})`, ours: results.ours, baseline: results.baseline },
    ]),
  );

  print("");
  print(
    `Publish of the draft week (${7 * STAFF} entries), ${PUBLISH_SAMPLES} times on each, one at a time, the week reset to drafts before each:`,
  );
  const oursPublish = await publishLatencies(ours, world);
  const baselinePublish = await publishLatencies(baseline, world);
  print(
    table(
      ["server", "samples", "p50 ms", "p99 ms"],
      [
        ["ours", String(PUBLISH_SAMPLES), ms(percentile(oursPublish, 0.5)), ms(percentile(oursPublish, 0.99))],
        ["baseline", String(PUBLISH_SAMPLES), ms(percentile(baselinePublish, 0.5)), ms(percentile(baselinePublish, 0.99))],
        [
          "ours/baseline",
          "",
          `${(percentile(oursPublish, 0.5) / percentile(baselinePublish, 0.5)).toFixed(2)}x`,
          `${(percentile(oursPublish, 0.99) / percentile(baselinePublish, 0.99)).toFixed(2)}x`,
        ],
      ],
    ),
  );

  print("");
  if (drift.length === 0)
    print("Baseline statements: identical to this run's trace of our Worker (SQL and bound values; publish's clock values masked).");
  else {
    print(`Baseline statements DIFFER for: ${drift.map((d) => d.what).join(", ")}. Ours, then the baseline's:`);
    print(`  ${JSON.stringify(drift[0].actual)}\n  ${JSON.stringify(drift[0].expected)}`);
  }
  print(
    mismatches.length === 0
      ? `Baseline responses: identical to ours for the ${pages.length} week view pages.`
      : `Baseline responses DIFFER for: ${mismatches.join(", ")}`,
  );
  if (profiles.ours && profiles.baseline) {
    printProfile(print, "our Worker during week view pages", profiles.ours.profile);
    printCpuPerRequest(print, "week view page", profiles.ours, profiles.baseline);
  }
}
