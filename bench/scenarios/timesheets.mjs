// Issue 4, "At scale": 10,000 shifts (50 staff, 3 locations, 90 days, with breaks); a month's listing walked page
// by page, its totals, the CSV export and both reports, ours vs the baseline; D1's rows_read per listing page next
// to the rows returned, and the D1 round trips of each request, counted on traced requests.
import { writeFileSync } from "node:fs";
import { isDeepStrictEqual } from "node:util";
import {
  decodeShiftCursor,
  employeeReportStatements,
  exportFirstStatements,
  exportStatement,
  listingStatements,
  reportStatements,
  timesheetParams,
} from "../baseline/timesheet-statements.js";
import { expectStatus, organizationTokens, seedOrganization } from "../lib/api.mjs";
import { measure } from "../lib/load.mjs";
import { printCpuPerRequest, printProfile } from "../lib/profile-report.mjs";
import { startProfile } from "../lib/profiler.mjs";
import { shareRecording } from "../lib/recording.mjs";
import { comparisonTable, table } from "../lib/report.mjs";
import { addDays, inGroups, localInstant } from "../lib/seeding.mjs";
import { copyData, describeRoundTrip, startBaseline, startOurs, traced } from "../lib/workers.mjs";

export const name = "timesheets";
export const description = "10,000 shifts: a month's listing page by page, totals, CSV export, both reports (issue 4)";

const STAFF = 50;
/** Access tokens the load takes turns with: 96 × 600 requests a minute is well above what the Worker serves here. */
const LOAD_TOKENS = 96;
const DAYS = 90;
/** 90 days: 2026-01-05 to 2026-04-04. */
const FIRST_DAY = "2026-01-05";
const SHIFTS = 10_000;
/** The month measured: whole inside the 90 days (data before and after it), across the US DST change of 8 March. */
const MONTH = { startDate: "2026-03-01", endDate: "2026-03-31" };
const PAGE_LIMIT = 100;
/** Five weekdays locked at every location, so `locked` and `lockedDays` are not all empty. */
const LOCKED_DATES = ["2026-03-02", "2026-03-03", "2026-03-04", "2026-03-05", "2026-03-06"];
const LOCATIONS = [
  { name: "Flatiron", timezone: "America/New_York", externalId: "loc-nyc" },
  { name: "Wicker Park", timezone: "America/Chicago", externalId: "loc-chi" },
  { name: "Silver Lake", timezone: "America/Los_Angeles", externalId: "loc-lax" },
];
/**
 * A staff-day holds two of these (three on 2 staff-days in 9): 4,500 staff-days × 2 + 1,000 = 10,000 shifts. Starts
 * move up to 10 minutes later and lengths up to 20 minutes shorter, so they never overlap; every shift has a break.
 */
const SLOTS = [
  { at: "06:00", minutes: 270, breaks: [{ afterMinutes: 120, minutes: 15, paid: true, name: "Coffee" }] },
  { at: "11:00", minutes: 330, breaks: [{ afterMinutes: 150, minutes: 30, paid: false, name: "Lunch" }] },
  { at: "17:30", minutes: 240, breaks: [{ afterMinutes: 120, minutes: 10, paid: true, name: "Coffee" }] },
];
const PAIRS = [
  [0, 1],
  [1, 2],
  [0, 2],
];
/** Seeds per POST /__bench/seed-shifts (written as JSON rows, 1,000 an INSERT of one bound parameter). */
const SEED_CHUNK = 1000;
const SEED_PARALLELISM = 8;
/** Upper bound on the pages walked (a month is ~35 pages of 100): the walk never loops forever. */
const MAX_PAGES = 200;
/** Target of issue 4: D1 rows_read of a listing page within 1.05× the rows it returns. */
const ROWS_READ_TARGET = 1.05;

/** A small seeded PRNG: the same 10,000 shifts at every run. */
function mulberry32(seed) {
  return () => {
    seed = (seed + 0x6d2b79f5) | 0;
    let t = Math.imul(seed ^ (seed >>> 15), 1 | seed);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

const hhmm = (minutes) => `${String(Math.floor(minutes / 60)).padStart(2, "0")}:${String(minutes % 60).padStart(2, "0")}`;

/** The 10,000 shifts, in start order: staff member i works at location i % 3, one day in five at the next one. */
function generateShifts(staff, locations) {
  const random = mulberry32(4);
  const seeds = [];
  for (let day = 0; day < DAYS; day++) {
    const date = addDays(FIRST_DAY, day);
    staff.forEach((member, i) => {
      const staffDay = i * DAYS + day;
      const slots = staffDay % 9 < 2 ? [0, 1, 2] : PAIRS[(i + day) % 3];
      const location = locations[((i % 3) + (staffDay % 5 === 0 ? 1 : 0)) % 3];
      for (const slot of slots) {
        const { at, minutes, breaks } = SLOTS[slot];
        const [h, m] = at.split(":").map(Number);
        const { startAt, utcOffset } = localInstant(date, hhmm(h * 60 + m + 5 * Math.floor(random() * 3)), location.timezone);
        const n = seeds.length;
        seeds.push({
          employeeId: member.id,
          locationId: location.id,
          roleId: member.roleId,
          startAt,
          minutes: minutes - 5 * Math.floor(random() * 5),
          utcOffset,
          hourlyWage: member.hourlyWage,
          flags: n % 97 === 0 ? ["IP_FAR", "OUTSIDE_GEOFENCE"] : n % 29 === 0 ? ["IP_FAR"] : [],
          breaks,
        });
      }
    });
  }
  if (seeds.length !== SHIFTS) throw new Error(`generated ${seeds.length} shifts, not ${SHIFTS}`);
  return seeds;
}

/**
 * Through our API: an organization with defaults, three locations in three zones, 50 staff members (a few names
 * that CSV must quote), locked days; then the 10,000 shifts through the bench-only seeding route (src's own
 * chunked INSERT builders), in bulk.
 */
async function seed(ours, print) {
  const r = ours.request;
  const started = Date.now();
  const { org, admin } = await seedOrganization(r, { name: "Bench Bakeries", timezone: "America/New_York" });
  const locations = await inGroups(LOCATIONS, 3, (body) =>
    expectStatus(r("POST", `/api/organizations/${org.id}/locations`, { token: admin, body }), 201, `location ${body.name}`).then((l) => ({
      ...l,
      timezone: body.timezone,
    })),
  );
  const roles = org.defaults.roles;
  const odd = ["Lee, Jordan", 'Avery "Ace" Kim', "=Sam Doe"];
  const staff = await inGroups(
    Array.from({ length: STAFF }, (_, i) => i),
    SEED_PARALLELISM,
    async (i) => {
      const hourlyWage = 16 + (i % 8) * 1.25;
      const body = {
        name: odd[i] ?? `Staff ${String(i + 1).padStart(2, "0")}`,
        externalId: `emp-${1001 + i}`,
        externalPayrollId: `pay-${5001 + i}`,
        hourlyWage,
        locationIds: locations.map((l) => l.id),
        accessRoleName: "Employee",
      };
      const created = await expectStatus(r("POST", `/api/organizations/${org.id}/staffmembers`, { token: admin, body }), 201, `staff ${i}`);
      return { id: created.id, hourlyWage, roleId: roles[i % roles.length].id };
    },
  );
  const seeds = generateShifts(staff, locations);
  const chunks = [];
  for (let i = 0; i < seeds.length; i += SEED_CHUNK) chunks.push(seeds.slice(i, i + SEED_CHUNK));
  const seeded = { shifts: 0, breaks: 0, statements: 0, batches: 0, maxBoundParameters: 0 };
  for (const shifts of chunks) {
    const res = await expectStatus(r("POST", "/__bench/seed-shifts", { body: { organizationId: org.id, shifts } }), 200, "seed shifts");
    for (const key of ["shifts", "breaks", "statements", "batches"]) seeded[key] += res[key];
    seeded.maxBoundParameters = Math.max(seeded.maxBoundParameters, res.maxBoundParameters);
  }
  const locks = locations.flatMap((l) => LOCKED_DATES.map((date) => ({ date, locationId: l.id })));
  await inGroups(locks, SEED_PARALLELISM, (body) =>
    expectStatus(r("POST", "/api/timesheets/locked-days", { token: admin, body }), 200, `lock ${body.date}`),
  );
  print(
    `  seeded ${seeded.shifts} shifts and ${seeded.breaks} breaks in ${seeded.statements} INSERTs ` +
      `(${seeded.batches} D1 batches; at most ${seeded.maxBoundParameters} bound parameters per statement, D1's cap is 100), ` +
      `${STAFF} staff, ${locations.length} locations, ${locks.length} locked days, in ${((Date.now() - started) / 1000).toFixed(1)} s`,
  );
  return { org, admin, staff, locations };
}

const query = (params) => new URLSearchParams(Object.entries(params).filter(([, v]) => v !== undefined)).toString();
const nextOf = (headers) => /<([^>]+)>;\s*rel="next"/.exec(headers.get("Link") ?? "")?.[1] ?? null;
const total = (values) => (values.some((v) => v === null || v === undefined) ? NaN : values.reduce((a, b) => a + b, 0));
const x = (value) => (Number.isFinite(value) ? `${value.toFixed(2)}x` : "-");
const n = (value) => (Number.isFinite(value) ? String(value) : "?");

/** The measured requests (the same paths go to both Workers: the baseline reads the organization from the query). */
function requests(world) {
  const range = { organizationId: world.org.id, ...MONTH };
  return {
    listing: `/api/timesheets?${query({ ...range, limit: PAGE_LIMIT })}`,
    totals: `/api/timesheets?${query({ ...range, limit: 1 })}`,
    staffTotals: `/api/timesheets?${query({ ...range, employeeId: world.staff[0].id, limit: 1 })}`,
    export: `/api/timesheets/export?${query({ ...range, format: "csv" })}`,
    reports: `/api/timesheets/reports?${query({ ...range, limit: PAGE_LIMIT })}`,
    employees: `/api/timesheets/reports/employees?${query({ ...range, limit: PAGE_LIMIT })}`,
  };
}

/** The month's listing walked through `Link: rel="next"`, every page on a traced request. */
async function walkListing(ours, world, firstPath) {
  const pages = [];
  let path = firstPath;
  while (path && pages.length < MAX_PAGES) {
    const res = await traced(ours, "GET", path, { token: world.admin });
    if (res.status !== 200) throw new Error(`listing page ${pages.length + 1}: ${res.status} ${res.text.slice(0, 300)}`);
    pages.push({ path, res });
    path = nextOf(res.headers);
  }
  if (path) throw new Error(`listing: more than ${MAX_PAGES} pages`);
  return pages;
}

/** A traced request's round trips on its organization's shard: without the directory read that chose it. */
const shard = (res) => res?.roundTrips.filter((t) => t.kind !== "directory") ?? [];

/** What the baseline sends for a request, per round trip: {call, pairs: [[sql, values]]} (see timesheet-statements.js). */
function baselineTrips(kind, path, res) {
  const p = timesheetParams(new URL(path, "http://127.0.0.1"));
  if (kind === "listing") return [{ call: "batch", pairs: listingStatements(p, p.cursor ? decodeShiftCursor(p.cursor) : null) }];
  if (kind === "reports") return [{ call: "batch", pairs: reportStatements(p) }];
  if (kind === "employees") return [{ call: "batch", pairs: employeeReportStatements(p, null) }];
  // export: one page of 500 per round trip, each after the last row of the one before (read back from the CSV).
  const lines = res.text.split("\r\n").slice(1, -1);
  const trips = [{ call: "batch", pairs: exportFirstStatements(p) }];
  for (let k = 500; k <= lines.length; k += 500) {
    const [id, businessDate] = lines[k - 1].split(",");
    trips.push({ call: "raw", pairs: [exportStatement(p, { businessDate, id })] });
  }
  return trips;
}

const oursTrips = (res) => shard(res).map((t) => ({ call: t.call, pairs: t.statements.map((sql, i) => [sql, t.params[i]]) }));

/** The same answer from both Workers: status, Link, and the body (parsed JSON compared deeply, else the text). */
async function sameResponse(ours, baseline, path, token) {
  const [a, b] = await Promise.all([ours.request("GET", path, { token }), baseline.request("GET", path)]);
  const problems = [];
  if (a.status !== 200 || b.status !== 200) problems.push(`status ${a.status} vs ${b.status}`);
  if (a.headers.get("Link") !== b.headers.get("Link")) problems.push(`Link ${a.headers.get("Link")} vs ${b.headers.get("Link")}`);
  if (a.body !== undefined ? !isDeepStrictEqual(a.body, b.body) : a.text !== b.text) {
    const [x1, x2] = a.body !== undefined ? [JSON.stringify(a.body), JSON.stringify(b.body)] : [a.text, b.text];
    let i = 0;
    while (i < x1.length && x1[i] === x2[i]) i++;
    problems.push(
      `body differs at ${i}: ours …${x1.slice(Math.max(0, i - 80), i + 120)}… baseline …${x2.slice(Math.max(0, i - 80), i + 120)}…`,
    );
  }
  return problems;
}

/**
 * Each operation against ours then the baseline, back to back, each after its own discarded warm-up. The requests
 * take turns among `tokens`, so that the load stays under the per-token rate limit (a 429 is no measure of a listing).
 */
async function drive(servers, operations, tokens, { connections, durationSeconds, warmupSeconds, profile }, print) {
  const results = Object.fromEntries(servers.map((s) => [s.name, { errors: 0, timeouts: 0 }]));
  const profiles = [];
  for (const { label, paths } of operations) {
    // Connection i starts i/connections of the way through the request list, so the pages are spread out.
    const requestsFor = (i) => {
      const start = Math.floor((i * paths.length) / connections);
      const list = [...paths.slice(start), ...paths.slice(0, start)];
      // At least as many requests as tokens, each token in turn: a short list repeats, spread over every token.
      return Array.from({ length: Math.max(list.length, tokens.length) }, (_, j) => ({
        label,
        method: "GET",
        path: list[j % list.length],
        headers: { authorization: `Bearer ${tokens[(i + j) % tokens.length]}` },
      }));
    };
    for (const server of servers) {
      const base = { url: server.url, connections, requestsFor, timeoutSeconds: 30 };
      if (warmupSeconds > 0) await measure({ ...base, durationSeconds: warmupSeconds });
      print(`  ${server.name}: ${durationSeconds} s of ${label}`);
      const profiling = profile ? await startProfile(server.inspectorPort) : null;
      const measured = await measure({ ...base, durationSeconds });
      if (profiling)
        profiles.push({ what: label, server: server.name, requests: measured.byLabel[label]?.count ?? 0, profile: await profiling.stop() });
      Object.assign(results[server.name], measured.byLabel);
      results[server.name].errors += measured.errors;
      results[server.name].timeouts += measured.timeouts;
    }
  }
  return { ...results, profiles };
}

export async function run({ stateDir, options, print }) {
  const { connections } = options;
  print("Starting our Worker (wrangler dev, bench/counting-entry.ts) and seeding it…");
  // Without the D1 limits guard, as the baseline it is compared with (production runs without it; issue 36).
  const ours = await startOurs(stateDir, "ours", { limitsEnforced: false });
  const world = await seed(ours, print);
  const paths = requests(world);

  // Traced requests: D1 calls, rows read and returned, for every page of the month and each other operation.
  const pages = await walkListing(ours, world, paths.listing);
  const tracedOne = async (path, what) => {
    const res = await traced(ours, "GET", path, { token: world.admin });
    if (res.status !== 200) throw new Error(`traced ${what}: ${res.status} ${res.text.slice(0, 300)}`);
    return res;
  };
  const single = {
    totals: await tracedOne(paths.totals, "totals"),
    staffTotals: await tracedOne(paths.staffTotals, "one staff member's totals"),
    export: await tracedOne(paths.export, "export"),
    reports: await tracedOne(paths.reports, "reports"),
    employees: await tracedOne(paths.employees, "employees report"),
  };
  const monthShifts = pages[0].res.body.totals.count;
  // Recorded for the baseline only, beside the measured requests: a report's second page, an employees report's page
  // after a cursor (20 a page: the 50 staff take three).
  const reportsPage2 = await tracedOne(`${paths.reports}&page=2`, "reports, page 2");
  const employeesByTwenty = await tracedOne(paths.employees.replace(`limit=${PAGE_LIMIT}`, "limit=20"), "employees report by 20");
  const employeesNext = nextOf(employeesByTwenty.headers);
  if (pages.length < 2 || !employeesNext)
    throw new Error("timesheets: the recording needs a listing page and an employees page after a cursor");
  const recorded = {
    listing: pages[0].res,
    "listing, next page": pages[1].res,
    export: single.export,
    reports: single.reports,
    "reports, page 2": reportsPage2,
    employees: single.employees,
    "employees, next page": await tracedOne(employeesNext, "employees report, next page"),
  };

  print("Starting the baseline Worker (bench/baseline) and copying the seeded rows into its D1…");
  const baseline = await startBaseline(stateDir);
  const copyStarted = Date.now();
  const copied = await copyData(ours, baseline);
  print(`  copied ${copied.rows} rows in ${copied.statements} INSERT statements in ${((Date.now() - copyStarted) / 1000).toFixed(1)} s`);
  // Every statement the baseline sends is this run's trace of ours (bench/baseline/recording.js).
  await shareRecording(recorded, [baseline]);

  // The baseline must send the same statements with the same values, and answer the same responses.
  const drift = [];
  const checkTrips = (what, kind, path, res) => {
    const expected = baselineTrips(kind, path, res);
    if (JSON.stringify(expected) !== JSON.stringify(oursTrips(res))) drift.push({ what, expected, actual: oursTrips(res) });
  };
  pages.forEach(({ path, res }, i) => checkTrips(`listing page ${i + 1}`, "listing", path, res));
  checkTrips("totals", "listing", paths.totals, single.totals);
  checkTrips("export", "export", paths.export, single.export);
  checkTrips("reports", "reports", paths.reports, single.reports);
  checkTrips("reports/employees", "employees", paths.employees, single.employees);
  const mismatches = [];
  const compared = [...pages.map((p) => p.path), paths.totals, paths.export, paths.reports, paths.employees];
  for (const path of compared) {
    const problems = await sameResponse(ours, baseline, path, world.admin);
    if (problems.length > 0) mismatches.push({ path, problems });
  }

  // BENCH_DUMP_TRACES=file: every drifted round trip (ours, then the baseline's) and every differing answer, to bring
  // the bound values in bench/baseline/timesheet-statements.js and the answers in timesheets.js up to date.
  if (process.env.BENCH_DUMP_TRACES) writeFileSync(process.env.BENCH_DUMP_TRACES, JSON.stringify({ drift, mismatches }, null, 2));
  const operations = [
    { label: `listing page (${pages.length} pages)`, paths: pages.map((p) => p.path) },
    { label: "totals (limit=1)", paths: [paths.totals] },
    { label: "export csv", paths: [paths.export] },
    { label: "reports", paths: [paths.reports] },
    { label: "reports/employees", paths: [paths.employees] },
  ];
  print(
    `Load: ${connections} connections, ${options.warmupSeconds} s warm-up per phase (discarded); the month is ${MONTH.startDate}..${MONTH.endDate}, ${monthShifts} shifts`,
  );
  const tokens = await organizationTokens(ours.request, world.org.id, LOAD_TOKENS);
  const { ours: oursResult, baseline: baselineResult, profiles } = await drive([ours, baseline], operations, tokens, options, print);

  print("");
  print(comparisonTable(operations.map(({ label }) => ({ label, ours: oursResult[label], baseline: baselineResult[label] }))));
  for (const [who, result] of [
    ["ours", oursResult],
    ["baseline", baselineResult],
  ]) {
    if (result.errors || result.timeouts) print(`  ${who}: ${result.errors} connection errors, ${result.timeouts} timeouts`);
  }
  const lastPage = pages[pages.length - 1].res.body.shifts.length;
  print(
    [
      `  listing page: GET /api/timesheets?startDate=${MONTH.startDate}&endDate=${MONTH.endDate}&limit=${PAGE_LIMIT}, each connection walking the`,
      `    ${pages.length} pages (${pages.length - 1} × ${PAGE_LIMIT} + ${lastPage}) by their cursors; every page also sums the totals of the whole month.`,
      `  totals: the same listing with limit=1 — one shift (its breaks on its row), so the totals (all ${monthShifts} shifts of the month) dominate.`,
      `  export csv: GET /api/timesheets/export?format=csv for the month (${monthShifts} rows, ${shard(single.export).length} keyset pages of 500).`,
      `  reports: GET /api/timesheets/reports for the month, page 1 of ${PAGE_LIMIT} (day, staff member, location) rows + the month's totals.`,
      `  reports/employees: GET /api/timesheets/reports/employees for the month (one row per staff member, ${single.employees.body.length}).`,
    ].join("\n"),
  );

  // rows_read per listing page next to the rows the page's statements returned.
  print("");
  print("D1 per listing page (traced; read = D1's meta.rows_read, returned = rows the statement answered, limit+1 for the page):");
  const pageRows = pages.map(({ res }, i) => {
    const [trip] = shard(res);
    const read = (k) => trip?.rowsRead[k] ?? null;
    const returned = (k) => trip?.rowsReturned?.[k] ?? null;
    const shiftsRatio = read(0) / returned(0);
    // A shift's breaks ride on its row (breaks_json): the page statement answers them, no statement reads them apart.
    const breaks = res.body.shifts.reduce((k, s) => k + s.breaks.length, 0);
    return {
      cells: [
        String(i + 1),
        String(res.body.shifts.length),
        String(shard(res).length),
        `${n(read(0))}/${n(returned(0))}`,
        x(shiftsRatio),
        String(breaks),
        `${n(read(1))}/${n(res.body.totals.count)}`,
        `${n(read(2))}/${n(returned(2))}`,
      ],
      shiftsRatio,
      trips: shard(res).length,
    };
  });
  print(
    table(
      [
        "page",
        "shifts",
        "round trips",
        "shifts (with breaks): read/returned",
        "ratio",
        "breaks on the rows",
        "totals: read/summed",
        "locked days: read/returned",
      ],
      pageRows.map((r) => r.cells),
    ),
  );
  const range = (key) => {
    const values = pageRows.map((r) => r[key]);
    const over = values.filter((v) => !(v <= ROWS_READ_TARGET)).length;
    return `${x(Math.min(...values))} to ${x(Math.max(...values))}, ${over === 0 ? "within" : `over`} ${ROWS_READ_TARGET}x on ${over === 0 ? "every page" : `${over} of ${pages.length} pages`}`;
  };
  print(`rows_read / rows returned per listing page (target ≤ ${ROWS_READ_TARGET}x):`);
  print(`  shifts statement, breaks included (shifts.breaks_json): ${range("shiftsRatio")}`);
  print(`  totals statement: reads the ${monthShifts} shifts of the month it sums (+1), on every page.`);
  const tripCounts = [...new Set(pageRows.map((r) => r.trips))].join(", ");
  print(`D1 round trips per listing page: ${tripCounts} (${shard(pages[0].res)[0]?.statements.length ?? 0} statements in one batch).`);

  print("");
  print("D1 per request of the other operations (traced; rows read summed over its statements):");
  const others = [
    ["totals (limit=1)", single.totals, single.totals.body.totals.count],
    ["totals of one staff member (employeeId, limit=1)", single.staffTotals, single.staffTotals.body.totals.count],
    ["export csv", single.export, monthShifts],
    ["reports", single.reports, monthShifts],
    ["reports/employees", single.employees, monthShifts],
  ];
  print(
    table(
      ["request", "round trips", "statements", "rows read", "rows returned", "shifts in range", "read/shifts"],
      others.map(([label, res, shifts]) => {
        const read = total(res.roundTrips.flatMap((t) => t.rowsRead));
        return [
          label,
          String(res.roundTrips.length),
          String(res.roundTrips.reduce((k, t) => k + t.statements.length, 0)),
          n(read),
          n(total(res.roundTrips.flatMap((t) => t.rowsReturned ?? [null]))),
          String(shifts),
          x(read / shifts),
        ];
      }),
    ),
  );
  for (const [label, res] of others) {
    print(`  ${label}:`);
    res.roundTrips.forEach((trip, i) => {
      if (i < 2 || i === res.roundTrips.length - 1) {
        const rows = trip.statements.map((_, k) => `${n(trip.rowsRead[k])} read/${n(trip.rowsReturned?.[k])} returned`).join(", ");
        print(`    ${i + 1}. ${describeRoundTrip(trip)} (${rows})`);
      } else if (i === 2) print("    …");
    });
  }
  if ([...pages.map((p) => p.res), ...Object.values(single)].some((res) => res.roundTrips.some((t) => t.shadowRead))) {
    print(
      "  (rows read of a raw()/first() SELECT come from re-running it once with .all() on the traced request: D1 gives raw() no meta.)",
    );
  }

  // The plan of each distinct statement, with the values of its traced call.
  const planned = [
    ["listing page, first", shard(pages[0].res)[0], 0],
    ["listing page, after a cursor", shard(pages[1]?.res)[0], 0],
    ["totals", shard(pages[0].res)[0], 1],
    ["locked days", shard(pages[0].res)[0], 2],
    ["one staff member's page", shard(single.staffTotals)[0], 0],
    ["one staff member's totals", shard(single.staffTotals)[0], 1],
    ["export: staff names", shard(single.export)[0], 0],
    ["export: location names", shard(single.export)[0], 1],
    ["export: role names", shard(single.export)[0], 2],
    ["export page, first", shard(single.export)[0], 4],
    ["export page, after a cursor", shard(single.export)[1], 0],
    ["report days", shard(single.reports)[0], 0],
    ["employees report", shard(single.employees)[0], 0],
  ].filter(([, trip]) => trip);
  print("");
  print("Query plans (EXPLAIN QUERY PLAN in our D1, with each statement's traced values):");
  const scans = [];
  for (const [label, trip, k] of planned) {
    const plan = await expectStatus(
      ours.request("POST", "/__bench/explain", { body: { sql: trip.statements[k], params: trip.params[k] } }),
      200,
      `explain ${label}`,
    );
    const details = plan.map((row) => row.detail);
    // A SCAN of a co-routine or materialized subquery of the same plan steps through the rows that subquery makes,
    // not through a table: only a SCAN of a table is a full scan.
    const subqueries = new Set(details.flatMap((d) => /^(?:CO-ROUTINE|MATERIALIZE) (\S+)/.exec(d)?.[1] ?? []));
    scans.push(...details.filter((d) => /^SCAN /.test(d) && !subqueries.has(d.split(" ")[1])).map((d) => `${label}: ${d}`));
    print(`  ${label}: ${details.join("; ")}`);
  }
  print(
    scans.length === 0
      ? "Full scans: none — every table of these statements is searched through an index (a SCAN of a statement's own co-routine steps through the rows its subquery makes)."
      : `Full scans: ${scans.join("; ")}`,
  );

  print("");
  if (drift.length === 0) {
    print(
      `Baseline statements: identical to this run's trace of our Worker — SQL and bound values, per round trip (${pages.length} listing pages, totals, export, reports, reports/employees).`,
    );
  } else {
    print(`Baseline statements DIFFER from our Worker for: ${drift.map((d) => d.what).join(", ")}.`);
    print("Update the values in bench/baseline/timesheet-statements.js (README). First difference — ours, then the baseline's:");
    print(`  ${JSON.stringify(drift[0].actual)}\n  ${JSON.stringify(drift[0].expected)}`);
  }
  if (mismatches.length === 0) {
    print(`Baseline responses: identical to ours (status, Link, body) for the ${compared.length} measured requests.`);
  } else {
    print(`Baseline responses DIFFER from ours for ${mismatches.length} of ${compared.length} requests:`);
    for (const { path, problems } of mismatches.slice(0, 3)) print(`  ${path}: ${problems.join("; ").slice(0, 800)}`);
  }
  for (const { what, server, profile } of profiles) {
    if (server === "ours") printProfile(print, `our Worker during ${what}`, profile);
  }
  for (const { label } of operations) {
    const [ourProfile, baseProfile] = ["ours", "baseline"].map((name) => profiles.find((p) => p.what === label && p.server === name));
    if (ourProfile && baseProfile) printCpuPerRequest(print, label, ourProfile, baseProfile);
  }
}
