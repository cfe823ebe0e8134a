// The two Workers a scenario compares, each on its own port and its own freshly migrated local D1:
//   ours     - src/worker.ts's fetch behind bench/counting-entry.ts (round trips counted only on traced requests)
//   baseline - bench/baseline/worker.js, plain fetch handler, same D1 statements
import { randomBytes } from "node:crypto";
import { mkdirSync } from "node:fs";
import { join } from "node:path";
import { client } from "./api.mjs";
import { freePort, migrate, ROOT, startWorker } from "./servers.mjs";

const OUR_CONFIG = join(ROOT, "wrangler.toml");
const BASELINE_CONFIG = join(ROOT, "bench", "baseline", "wrangler.toml");
const HONO_ONLY_CONFIG = join(ROOT, "bench", "hono-only", "wrangler.toml");
/**
 * Each bench process starts its search at its own offset: several engineers' benches starting together probed the
 * same free ports and one's profiler attached to another's Worker (its profile named modules of another checkout).
 */
const OFFSET = (process.pid % 40) * 5;
const FIRST_PORT = 8791 + OFFSET;
const FIRST_INSPECTOR_PORT = 9291 + OFFSET;
const takenPorts = new Set();

async function ports() {
  const port = await freePort(FIRST_PORT, takenPorts);
  takenPorts.add(port);
  const inspectorPort = await freePort(FIRST_INSPECTOR_PORT, takenPorts);
  takenPorts.add(inspectorPort);
  return { port, inspectorPort };
}

async function start({ stateDir, name, config, entry, vars, flags }) {
  const dir = join(stateDir, name);
  mkdirSync(dir, { recursive: true });
  const persistTo = join(dir, "d1");
  const logFile = join(dir, "wrangler.log");
  await migrate({ config, persistTo, logFile });
  const server = await startWorker({ name, config, entry, persistTo, vars, flags, logFile, ...(await ports()) });
  return { ...server, request: client(server.url) };
}

/**
 * Our Worker with a random TOKEN_SECRET (the bench mints every token through the API) and WEBHOOK_SECRET_KEY of its
 * own. `testScheduled`: `GET /__scheduled` runs the Cron handler (wrangler dev --test-scheduled).
 */
export const startOurs = (stateDir, name = "ours", { testScheduled = false, limitsEnforced = true } = {}) =>
  start({
    stateDir,
    name,
    config: OUR_CONFIG,
    entry: join("bench", "counting-entry.ts"),
    // D1_LIMITS_ENFORCED: each invocation's D1 bindings refuse what production D1 would (src/worker.ts). A scenario
    // comparing CPU with Workers that have no such guard turns it off (`limitsEnforced: false`): production runs without.
    vars: {
      TOKEN_SECRET: randomBytes(32).toString("base64url"),
      WEBHOOK_SECRET_KEY: randomBytes(32).toString("base64"),
      PHOTO_URL_SECRET: randomBytes(32).toString("base64url"),
      ...(limitsEnforced ? { D1_LIMITS_ENFORCED: "1" } : {}),
      // While developing the scale scenario at a few hundred staff: their close as a job too (wrangler.toml: 5,000).
      ...(process.env.BENCH_CLOSE_IN_REQUEST_MAX ? { CLOSE_IN_REQUEST_MAX_EMPLOYEES: process.env.BENCH_CLOSE_IN_REQUEST_MAX } : {}),
    },
    flags: testScheduled ? ["--test-scheduled"] : [],
  });

export const startBaseline = (stateDir, name = "baseline") => start({ stateDir, name, config: BASELINE_CONFIG });

/**
 * The hono-only Worker (bench/hono-only, issue 36): OpenAPIHono and the project's request schemas around the
 * baseline's handlers and statements. Serves the time-tracking scenario's three operations.
 */
export const startHonoOnly = (stateDir, name = "hono-only") => start({ stateDir, name, config: HONO_ONLY_CONFIG });

/** Copies every application row of one Worker's D1 into the other's (both must serve /__bench/dump and /load). */
export async function copyData(from, to) {
  const dump = await from.request("GET", "/__bench/dump");
  if (dump.status !== 200) throw new Error(`dump from ${from.name}: ${dump.status} ${dump.text.slice(0, 500)}`);
  const load = await to.request("POST", "/__bench/load", { body: dump.body });
  if (load.status !== 200) throw new Error(`load into ${to.name}: ${load.status} ${load.text.slice(0, 500)}`);
  return load.body;
}

let traceSequence = 0;
/**
 * Sends one request to our Worker with D1 counting on, and answers its status, headers, body and the D1 round trips
 * it made: [{call, statements: [sql], params: [[values]], rowsRead, rowsWritten, rowsReturned}] (see counting-entry.ts).
 */
export async function traced(ours, method, path, options = {}) {
  const id = `t${++traceSequence}-${Date.now()}`;
  const res = await ours.request(method, path, { ...options, headers: { ...options.headers, "X-Bench-Trace": id } });
  const trace = await ours.request("GET", `/__bench/trace/${id}`);
  if (trace.status !== 200) throw new Error(`trace ${id}: ${trace.status} ${trace.text}`);
  return { status: res.status, headers: res.headers, body: res.body, text: res.text, roundTrips: trace.body.roundTrips };
}

/** "batch: select staff_members, locations; insert shifts" — what one round trip touched, for the printout. */
export function describeRoundTrip({ call, statements }) {
  const groups = [];
  for (const sql of statements) {
    const verb = sql.trimStart().split(/\s+/)[0].toLowerCase();
    const table = /(?:from|into|update)\s+"([^"]+)"/i.exec(sql)?.[1] ?? "?";
    const last = groups.at(-1);
    if (last?.verb === verb) last.tables.push(table);
    else groups.push({ verb, tables: [table] });
  }
  return `${call}: ${groups.map((g) => `${g.verb} ${g.tables.join(", ")}`).join("; ")}`;
}
