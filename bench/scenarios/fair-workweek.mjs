// Fair Workweek's bench (issue 33; its budget restated by issue 45 item 1): the publish of a 200-staff location's week
// entirely inside the pack's notice window takes the same round trips as the same publish with no pack, writes at
// most one row per entry, per change and per event, and its p50 is ≤ 1.6× the no-pack publish's in the same run. Two
// locations of one organization, the same staff, entries and edits; one with the NYC_FAST_FOOD pack (PUT
// …/fair-workweek), the other with none.
import { expectStatus, seedOrganization } from "../lib/api.mjs";
import { percentile } from "../lib/load.mjs";
import { printProfile } from "../lib/profile-report.mjs";
import { startProfile, watchIsolate } from "../lib/profiler.mjs";
import { ms, table } from "../lib/report.mjs";
import { addDays, atHour, ENTRY_COLUMNS, inGroups, localInstant, weekEntryRows } from "../lib/seeding.mjs";
import { describeRoundTrip, startOurs, traced } from "../lib/workers.mjs";

export const name = "fair-workweek";
export const description =
  "publish of a 200-staff week inside the notice window: NYC_FAST_FOOD pack vs no pack, same run (same round trips, rows written ≤ entries + changes + events, p50 ≤ 1.6x)";

const STAFF = 200;
const ZONE = "America/New_York";
const PACK = "NYC_FAST_FOOD";
const TARGET = 1.6;
/** D1's rows_written for one recorded change: its row, its primary key and schedule_changes_organization_date. */
const WRITES_PER_CHANGE = 3;
/** Measured publishes per location, alternating (pack first on odd repetitions, no pack first on even ones). */
const REPETITIONS = 64;
/** Publishes per location whose isolate CPU is measured (--profile), after the timed ones. */
const CPU_SAMPLES = 6;
const PARALLELISM = 8;

const localToday = () => new Intl.DateTimeFormat("en-CA", { timeZone: ZONE }).format(new Date());
/** The UTC instant and utcOffset of a local hour in ZONE. */
const localHour = (date, hour) => localInstant(date, atHour(hour), ZONE);
const startHour = (i) => 6 + (i % 8);

/** One 8-hour entry a day for each staff member of a location, starting 06:00 to 13:00 local (the same each day). */
/** A week of entries at the location; a published week's third day of each staff member is the one moved (editId). */
const entryRows = (orgId, location, week, isDraft, now) =>
  weekEntryRows({
    organizationId: orgId,
    locationId: location.id,
    staff: location.staff,
    roleOf: () => location.roleId,
    week,
    timeZone: ZONE,
    isDraft,
    now,
    startHour,
    each: (id, day, member) => {
      if (!isDraft && day === 2) member.editId = id;
    },
  });

const sql = (server, statement, params = []) =>
  expectStatus(server.request("POST", "/__bench/sql", { body: { sql: statement, params } }), 200, statement.slice(0, 60));

async function seed(ours, print, weeks) {
  const r = ours.request;
  const started = Date.now();
  const { org, admin } = await seedOrganization(r, { name: "Bench Fair Workweek", timezone: ZONE });
  const roleId = org.defaults.roles[0].id;
  const locations = [];
  for (const [key, label] of [
    ["pack", "With pack"],
    ["none", "No pack"],
  ]) {
    const location = await expectStatus(
      r("POST", `/api/organizations/${org.id}/locations`, { token: admin, body: { name: label, timezone: ZONE, country: "US" } }),
      201,
      `location ${label}`,
    );
    const records = Array.from({ length: STAFF }, (_, i) => ({
      externalId: `${key}-${i + 1}`,
      name: `${label} staff ${i + 1}`,
      locationIds: [location.id],
    }));
    const synced = await expectStatus(
      r("POST", `/api/organizations/${org.id}/staffmembers/sync`, { token: admin, body: { records } }),
      200,
      "staff sync",
    );
    const byExternal = new Map(synced.records.map((s) => [s.externalId, s.id]));
    locations.push({
      key,
      label,
      id: location.id,
      roleId,
      staff: records.map((rec) => ({ id: byExternal.get(rec.externalId) })),
      base: `/api/organizations/${org.id}/locations/${location.id}`,
    });
  }
  const [withPack] = locations;
  await expectStatus(r("PUT", `${withPack.base}/fair-workweek`, { token: admin, body: { rulePack: PACK } }), 200, "PUT fair-workweek");
  const now = Date.now();
  for (const location of locations) {
    const rows = [...entryRows(org.id, location, weeks.published, false, now), ...entryRows(org.id, location, weeks.drafts, true, now)];
    await expectStatus(
      r("POST", "/__bench/load", { body: { tables: [{ table: "schedule_entries", columns: ENTRY_COLUMNS, rows }] } }),
      200,
      "load entries",
    );
  }
  // The published week changed inside the window: each staff member's third day moved an hour later (MOVED, no
  // hours lost: the pack records it with its $15 or $10 premium; the location without a pack records nothing).
  const editDate = addDays(weeks.published.startDate, 2);
  for (const location of locations) {
    await inGroups(location.staff, PARALLELISM, async (member, i) => {
      const start = startHour(location.staff.indexOf(member)) + 1;
      const body = {
        startTime: `${editDate}T${String(start).padStart(2, "0")}:00:00Z`,
        endTime: `${editDate}T${String(start + 8).padStart(2, "0")}:00:00Z`,
      };
      await expectStatus(r("PATCH", `${location.base}/schedules/${member.editId}`, { token: admin, body }), 200, `edit ${i}`);
    });
  }
  const changes = await sql(
    ours,
    "SELECT location_id, kind, count(*) AS n, sum(premium_amount) AS amount FROM schedule_changes WHERE organization_id = ? GROUP BY 1, 2",
    [org.id],
  );
  const moved = changes.results.find((c) => c.location_id === withPack.id && c.kind === "MOVED");
  print(
    `  seeded 2 locations × ${STAFF} staff (one sync each), ${4 * 7 * STAFF} entries (each location: published week ` +
      `${weeks.published.startDate}..${weeks.published.endDate}, draft week ${weeks.drafts.startDate}..${weeks.drafts.endDate}), ` +
      `${2 * STAFF} edits of published entries (PATCH, +1 h on ${editDate}): change log ${moved?.n ?? 0} MOVED ($${moved?.amount ?? 0}) ` +
      `at the pack's location, ${changes.results.filter((c) => c.location_id !== withPack.id).length === 0 ? "none" : "SOME"} at the other; ` +
      `${((Date.now() - started) / 1000).toFixed(1)} s`,
  );
  return { org, admin, locations };
}

/**
 * Puts the draft week back as it was before a publish: its entries drafts again and the ADDED changes the publish
 * recorded for them gone (the events stay: the outbox only grows), so every measured publish does the same work.
 */
async function reset(ours, location, range) {
  await sql(
    ours,
    "UPDATE schedule_entries SET is_draft = 1, published_at = NULL WHERE location_id = ? AND start_at >= ? AND start_at < ?",
    [location.id, range.start, range.end],
  );
  await sql(
    ours,
    "DELETE FROM schedule_changes WHERE location_id = ? AND kind = 'ADDED' AND schedule_entry_id IN (SELECT id FROM schedule_entries WHERE location_id = ? AND start_at >= ? AND start_at < ?)",
    [location.id, location.id, range.start, range.end],
  );
}

const sum = (values) => values.reduce((a, b) => a + (b ?? 0), 0);

export async function run({ stateDir, options, print }) {
  const today = localToday();
  // Both weeks inside NYC's 14-day window: the published week from today, the drafts from today + 7 (their latest
  // start, today + 13 at 13:00 local, is under 14 days away at any hour of today).
  const weeks = {
    published: { startDate: today, endDate: addDays(today, 6) },
    drafts: { startDate: addDays(today, 7), endDate: addDays(today, 13) },
  };
  const range = {
    ...weeks.drafts,
    start: localHour(weeks.drafts.startDate, 0).startAt,
    end: localHour(addDays(weeks.drafts.endDate, 1), 0).startAt,
  };
  print("Starting our Worker and seeding it…");
  const ours = await startOurs(stateDir);
  const world = await seed(ours, print, weeks);
  const publish = (location, extra = {}) =>
    ours.request("POST", `${location.base}/schedules/publish`, { token: world.admin, body: { ...weeks.drafts, ...extra } });
  const expectPublished = (location, res) => {
    if (res.status !== 200 || res.body.publishedEntries !== 7 * STAFF)
      throw new Error(`publish at ${location.label}: ${res.status} ${res.text.slice(0, 300)}`);
  };

  // One traced publish each (a warm-up too), and what the pack's dry run says it records.
  const dry = await publish(world.locations[0], { dryRun: true });
  const tracedRuns = {};
  for (const location of world.locations) {
    const res = await traced(ours, "POST", `${location.base}/schedules/publish`, { token: world.admin, body: weeks.drafts });
    expectPublished(location, res);
    const recorded = await sql(ours, "SELECT count(*) AS n FROM schedule_changes WHERE location_id = ? AND kind = 'ADDED'", [location.id]);
    tracedRuns[location.key] = { res, recorded: recorded.results[0].n };
    await reset(ours, location, range);
  }
  print("");
  print(
    `D1 per publish (traced; ${7 * STAFF} drafts of ${weeks.drafts.startDate}..${weeks.drafts.endDate}; the pack's dry run: ` +
      `${dry.body?.totals?.changes} changes, $${dry.body?.totals?.premiumAmount} in premiums):`,
  );
  const rowsOf = (res) => [sum(res.roundTrips.flatMap((t) => t.rowsRead)), sum(res.roundTrips.flatMap((t) => t.rowsWritten))];
  print(
    table(
      ["location", "round trips", "statements", "rows read", "rows written", "ADDED recorded"],
      world.locations.map((l) => {
        const { res, recorded } = tracedRuns[l.key];
        return [
          `${l.label}${l.key === "pack" ? ` (${PACK})` : ""}`,
          String(res.roundTrips.length),
          String(sum(res.roundTrips.map((t) => t.statements.length))),
          ...rowsOf(res).map(String),
          String(recorded),
        ];
      }),
    ),
  );
  for (const l of world.locations) {
    print(`  ${l.label}:`);
    tracedRuns[l.key].res.roundTrips.forEach((trip, i) =>
      print(
        `    ${i + 1}. ${describeRoundTrip(trip)} (read ${trip.rowsRead.join("/")}, written ${trip.rowsWritten.join("/")}` +
          `${trip.sqlMs ? `; SQL ms ${trip.sqlMs.map((v) => (v === null ? "-" : v.toFixed(1))).join("/")}` : ""})`,
      ),
    );
  }

  // Timed publishes, alternating between the locations (ABBA order), each after its week is reset.
  const latencies = { pack: [], none: [] };
  for (let rep = 0; rep < REPETITIONS; rep++) {
    const order = rep % 2 === 0 ? world.locations : [...world.locations].reverse();
    for (const location of order) {
      await reset(ours, location, range);
      const started = process.hrtime.bigint();
      const res = await publish(location);
      latencies[location.key].push(Number(process.hrtime.bigint() - started) / 1e6);
      expectPublished(location, res);
    }
  }
  for (const key of ["pack", "none"]) latencies[key].sort((a, b) => a - b);

  // CPU of the isolate per publish (--profile): the Profiler's sampled time outside idle, one publish at a time.
  const cpu = { pack: [], none: [] };
  let packProfile = null;
  if (options.profile) {
    for (let i = 0; i < CPU_SAMPLES; i++) {
      for (const location of i % 2 === 0 ? world.locations : [...world.locations].reverse()) {
        await reset(ours, location, range);
        const { result, cpuMs } = await watchIsolate(ours.inspectorPort, () => publish(location));
        expectPublished(location, result);
        cpu[location.key].push(cpuMs);
      }
    }
    for (const key of ["pack", "none"]) cpu[key].sort((a, b) => a - b);
    const profiling = await startProfile(ours.inspectorPort);
    for (let i = 0; i < CPU_SAMPLES; i++) {
      await reset(ours, world.locations[0], range);
      expectPublished(world.locations[0], await publish(world.locations[0]));
    }
    packProfile = await profiling.stop();
  }

  const p50 = { pack: percentile(latencies.pack, 0.5), none: percentile(latencies.none, 0.5) };
  const ratio = p50.pack / p50.none;
  print("");
  print(`Publish of the draft week, ${REPETITIONS} times at each location, alternating, the week reset before each:`);
  const cpuCell = (key) => (cpu[key].length ? ms(percentile(cpu[key], 0.5)) : "-");
  print(
    table(
      ["location", "samples", "p50 ms", "p99 ms", "CPU p50 ms"],
      [
        [`with pack (${PACK})`, String(REPETITIONS), ms(p50.pack), ms(percentile(latencies.pack, 0.99)), cpuCell("pack")],
        ["no pack", String(REPETITIONS), ms(p50.none), ms(percentile(latencies.none, 0.99)), cpuCell("none")],
        [
          "pack/no pack",
          "",
          `${ratio.toFixed(2)}x`,
          `${(percentile(latencies.pack, 0.99) / percentile(latencies.none, 0.99)).toFixed(2)}x`,
          cpu.pack.length ? `${(percentile(cpu.pack, 0.5) / percentile(cpu.none, 0.5)).toFixed(2)}x` : "-",
        ],
      ],
    ),
  );
  if (packProfile) printProfile(print, `our Worker during ${CPU_SAMPLES} publishes with the pack (and their resets)`, packProfile);
  const trips = (key) => tracedRuns[key].res.roundTrips;
  print("");
  print(
    `D1: with pack ${trips("pack").length} round trips / ${sum(trips("pack").map((t) => t.statements.length))} statements per publish; ` +
      `no pack ${trips("none").length} / ${sum(trips("none").map((t) => t.statements.length))}.`,
  );
  // The budget: the same round trips as without a pack; rows written ≤ entries + changes + events (each entry
  // published, each change recorded, the one event); p50 ≤ TARGET × the no-pack publish's. D1's rows_written counts
  // every index entry a write touches too, so the rows are checked as what the pack adds to the no-pack publish (whose
  // entries and event are the same): each change's row, its primary key and its one index entry, nothing per entry.
  const changes = tracedRuns.pack.recorded;
  const written = { pack: rowsOf(tracedRuns.pack.res)[1], none: rowsOf(tracedRuns.none.res)[1] };
  const extra = written.pack - written.none;
  const sameTrips = trips("pack").length === trips("none").length;
  const rowsMet = extra <= changes * WRITES_PER_CHANGE;
  print(
    `fair-workweek: round_trips=${trips("pack").length} no_pack_round_trips=${trips("none").length} same=${sameTrips ? "yes" : "no"} ` +
      `rows_written=${written.pack} no_pack_rows_written=${written.none} extra=${extra} budget<=${changes * WRITES_PER_CHANGE} ` +
      `(changes ${changes} × ${WRITES_PER_CHANGE}) met=${rowsMet ? "yes" : "no"} publish_with_pack_p50=${ms(p50.pack)} ` +
      `no_pack_p50=${ms(p50.none)} ratio=${ratio.toFixed(2)} target<=${TARGET} met=${sameTrips && rowsMet && ratio <= TARGET ? "yes" : "no"}`,
  );
}
