// The measured half of docs/SCALING.md's capacity model: `npm run bench:capacity [-- --staff 60 --days 3]`.
// Starts our Worker (bench/counting-entry.ts) on a fresh local D1, seeds an organization through the API, and has
// every staff member work --days staff-days (clock-in with an Idempotency-Key, a break, clock-out; times in the past).
// Then it reads the D1 database file with SQLite's dbstat (pages per table and index, before and after the punches)
// and answers per staff-day: rows, bytes on disk, D1 rows written (traced), and the SQLite execution time of a
// clock-in's write batch replayed on a copy of the database (BEGIN … ROLLBACK, repeated).
import { execFileSync } from "node:child_process";
import { randomBytes } from "node:crypto";
import { mkdirSync, mkdtempSync, readdirSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { parseArgs } from "node:util";
import { accessToken, client, expectStatus, seedOrganization } from "./lib/api.mjs";
import { migrate, startWorker } from "./lib/servers.mjs";
import { traced } from "./lib/workers.mjs";

const { values } = parseArgs({
  options: {
    staff: { type: "string", default: "60" },
    days: { type: "string", default: "3" },
    port: { type: "string", default: "8767" },
    "keep-state": { type: "boolean", default: false },
  },
});
const STAFF = Number(values.staff);
const DAYS = Math.min(Number(values.days), 3); // punches are accepted up to 72 h back
const POSITION = { latitude: 40.748817, longitude: -73.985428, accuracy: 12 };
const HOUR = 3_600_000;

const sqlite = (file, sql) => execFileSync("sqlite3", ["-readonly", "-json", file, sql], { encoding: "utf8" }).trim();
const query = (file, sql) => JSON.parse(sqlite(file, sql) || "[]");

async function inGroups(items, size, fn) {
  const out = [];
  for (let i = 0; i < items.length; i += size) out.push(...(await Promise.all(items.slice(i, i + size).map(fn))));
  return out;
}

/** Bytes on disk (pages), payload bytes and rows of each table, its indexes counted with it. */
function footprint(file) {
  const pages = query(
    file,
    `SELECT COALESCE(m.tbl_name, d.name) AS tbl, SUM(d.pgsize) AS bytes, SUM(d.payload) AS payload
      FROM dbstat d LEFT JOIN sqlite_master m ON m.name = d.name GROUP BY tbl`,
  );
  const tables = query(file, "SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite_%' AND name NOT LIKE '_cf_%'");
  const rows = Object.fromEntries(tables.map(({ name }) => [name, query(file, `SELECT COUNT(*) AS n FROM "${name}"`)[0].n]));
  return Object.fromEntries(pages.map((p) => [p.tbl, { bytes: p.bytes, payload: p.payload, rows: rows[p.tbl] ?? 0 }]));
}

/** SQL with its parameters written in as literals, for the sqlite3 shell. */
function inline(sql, params) {
  let i = 0;
  return sql.replace(/\?/g, () => {
    const v = params[i++];
    if (v === null || v === undefined) return "NULL";
    if (typeof v === "number") return String(v);
    if (typeof v === "boolean") return v ? "1" : "0";
    return `'${String(v).replaceAll("'", "''")}'`;
  });
}

const stateDir = mkdtempSync(join(tmpdir(), "shiftline-capacity-"));
const persistTo = join(stateDir, "d1");
mkdirSync(persistTo);
const config = "wrangler.toml";
const logFile = join(stateDir, "wrangler.log");
await migrate({ config, persistTo, logFile });
const server = await startWorker({
  name: "ours",
  config,
  entry: join("bench", "counting-entry.ts"),
  persistTo,
  port: Number(values.port),
  inspectorPort: Number(values.port) + 1,
  vars: { TOKEN_SECRET: randomBytes(32).toString("base64url") },
  logFile,
});
const ours = { ...server, request: client(server.url) };
try {
  const r = ours.request;
  const { org, admin } = await seedOrganization(r, { name: "Capacity", timezone: "UTC" });
  const location = await expectStatus(
    r("POST", `/api/organizations/${org.id}/locations`, { token: admin, body: { name: "Depot", timezone: "UTC" } }),
    201,
    "location",
  );
  const breakType = await expectStatus(
    r("POST", `/api/organizations/${org.id}/locations/${location.id}/breaks`, {
      token: admin,
      body: { name: "Lunch", durationMinutes: 30, frequencyMinutes: 240, paid: false, mandatory: false },
    }),
    201,
    "break type",
  );
  const roleId = org.defaults.roles[0].id;
  const staff = await inGroups(
    Array.from({ length: STAFF + 1 }, (_, i) => i),
    8,
    async (i) => {
      const member = await expectStatus(
        r("POST", `/api/organizations/${org.id}/staffmembers`, {
          token: admin,
          body: { name: `Staff ${i}`, locationIds: [location.id], accessRoleName: "Employee" },
        }),
        201,
        "staff member",
      );
      return {
        token: await accessToken(r, { organizationId: org.id, employeeId: member.id }),
        path: `/api/organizations/${org.id}/staffmembers/${member.id}/locations/${location.id}`,
      };
    },
  );
  const tracer = staff.pop();

  const d1Dir = join(persistTo, "v3", "d1", "miniflare-D1DatabaseObject");
  const files = readdirSync(d1Dir)
    .filter((f) => f.endsWith(".sqlite"))
    .map((f) => join(d1Dir, f));
  const file = files.find((f) => query(f, `SELECT COUNT(*) AS n FROM organizations WHERE id = '${org.id}'`)[0].n === 1);
  const before = footprint(file);

  // A staff-day: in at 8 h before `end`, a 30-minute break 4 h in, out at `end`.
  const day = (m, end, trace = false) => {
    const at = (hoursBeforeEnd) => new Date(end - hoursBeforeEnd * HOUR).toISOString();
    const send = (action, body, headers) =>
      trace
        ? traced(ours, "POST", `${m.path}/${action}`, { token: m.token, body, headers })
        : r("POST", `${m.path}/${action}`, { token: m.token, body, headers });
    return [
      () => send("clock-in", { roleId, ...POSITION, occurredAt: at(8) }, { "Idempotency-Key": `in-${end}-${m.path}` }),
      () => send("break-start", { typeId: breakType.id, ...POSITION, occurredAt: at(4) }),
      () => send("break-end", { ...POSITION, occurredAt: at(3.5) }),
      () => send("clock-out", { ...POSITION, occurredAt: at(0) }),
    ];
  };
  const now = Date.now();
  const ends = Array.from({ length: DAYS }, (_, d) => now - 5 * 60_000 - d * 24 * HOUR).reverse();
  const started = Date.now();
  for (const end of ends) {
    await inGroups(staff, 8, async (m) => {
      for (const step of day(m, end)) await expectStatus(step(), 200, "punch");
    });
  }
  const punchSeconds = (Date.now() - started) / 1000;
  const after = footprint(file);

  // One traced staff-day for D1's own rows-written counter, and a copy of the database to replay its clock-in on.
  const copy = join(stateDir, "replay.sqlite");
  execFileSync("sqlite3", [file, `.backup '${copy}'`]);
  const traces = [];
  for (const step of day(tracer, now - 60_000, true)) traces.push(await step());
  const [clockIn] = traces;
  const written = traces.map((t) => t.roundTrips.flatMap((trip) => trip.rowsWritten).reduce((a, b) => a + (b ?? 0), 0));
  const writeTrip = clockIn.roundTrips.find(
    (trip) => trip.call === "batch" && trip.statements.some((s) => /^insert into "shifts"/i.test(s)),
  );
  const batchSql = writeTrip.statements.map((s, i) => `${inline(s, writeTrip.params[i])};`).join("\n");
  const REPS = 2000;
  const script = join(stateDir, "replay.sql");
  const timed = (reps) => {
    writeFileSync(
      script,
      `PRAGMA foreign_keys = ON;\n${Array.from({ length: reps }, () => `BEGIN;\n${batchSql}\nROLLBACK;`).join("\n")}\n`,
    );
    const t0 = process.hrtime.bigint();
    execFileSync("sqlite3", ["-bail", copy, `.read '${script}'`], { stdio: ["ignore", "ignore", "inherit"] });
    return Number(process.hrtime.bigint() - t0) / 1e6;
  };
  timed(50); // warm the page cache
  const batchMs = (timed(REPS) - timed(1)) / (REPS - 1);

  const staffDays = STAFF * DAYS;
  const perTable = Object.keys(after)
    .map((t) => ({
      table: t,
      rows: (after[t].rows - (before[t]?.rows ?? 0)) / staffDays,
      bytes: (after[t].bytes - (before[t]?.bytes ?? 0)) / staffDays,
      payload: (after[t].payload - (before[t]?.payload ?? 0)) / staffDays,
    }))
    .filter((t) => t.rows > 0 || t.bytes > 0)
    .sort((a, b) => b.bytes - a.bytes);
  const total = perTable.reduce((s, t) => ({ rows: s.rows + t.rows, bytes: s.bytes + t.bytes, payload: s.payload + t.payload }), {
    rows: 0,
    bytes: 0,
    payload: 0,
  });
  const fmt = (n, d = 0) => n.toLocaleString("en-US", { maximumFractionDigits: d, minimumFractionDigits: d });
  console.log(
    `\n${STAFF} staff x ${DAYS} days = ${staffDays} staff-days (${staffDays * 4} punches in ${fmt(punchSeconds, 1)} s locally)\n`,
  );
  console.log("| per staff-day | rows | bytes on disk (pages, indexes included) | payload bytes |");
  console.log("| --- | ---: | ---: | ---: |");
  for (const t of perTable) console.log(`| \`${t.table}\` | ${fmt(t.rows, 2)} | ${fmt(t.bytes)} | ${fmt(t.payload)} |`);
  console.log(`| **total** | **${fmt(total.rows, 2)}** | **${fmt(total.bytes)}** | **${fmt(total.payload)}** |`);
  console.log(
    `\nD1 rows written (meta.rows_written) per punch: clock-in ${written[0]}, break-start ${written[1]}, break-end ${written[2]}, clock-out ${written[3]}; staff-day ${written.reduce((a, b) => a + b, 0)}`,
  );
  console.log(
    `clock-in write batch (${writeTrip.statements.length} statements) replayed by SQLite on this machine: ${fmt(batchMs * 1000)} µs per batch`,
  );
} finally {
  await server.stop();
  if (!values["keep-state"]) rmSync(stateDir, { recursive: true, force: true });
}
