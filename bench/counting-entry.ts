// Bench-only entry: the real Worker (src/worker.ts) with an opt-in D1 round-trip counter.
//
// A request without the `X-Bench-Trace` header goes to the real Worker's fetch untouched (same env, same bindings),
// so the load the bench measures runs exactly the production code path. A request WITH the header gets an env
// whose shard bindings (SHARDS: DB, which also holds the directory, and DB_SHARD_2) are wrapped: every call that
// reaches D1 (`batch`, `exec`, `dump` and a prepared statement's `all`/`run`/`first`/`raw`) counts as one round
// trip of its binding, and the SQL of each is recorded. The response carries `X-D1-Round-Trips`, `X-D1-Statements`,
// `X-D1-Primary-Round-Trips` and `X-D1-Directory-Round-Trips`, and `GET /__bench/trace/{traceId}` answers the
// recorded SQL and values. The other bench endpoints work on the shard new organizations go to (the bench's data).
// `GET /__bench/dump` (see baseline/d1-rows.js) lets the bench copy the seeded rows into the baseline's database,
// `POST /__bench/seed-shifts` inserts many shifts at once (the timesheets and scale scenarios) as JSON rows, and
// `POST /__bench/explain` answers a statement's EXPLAIN QUERY PLAN, `POST /__bench/sql` runs one statement (seeding in
// bulk, and the raw SQL a scenario compares ours with), `POST /__bench/replay` sends a traced request's round trips again
// as raw SQL and `POST /__bench/accrual-pass` and `/__bench/attendance-pass` run the Cron's time-off and attendance
// passes at a given instant with D1 counting on (traced, with the header), and `POST /__bench/seed-events` appends events to an organization's outbox
// (the webhooks scenario). The queue consumer and the Cron handler are the real Worker's.
//
// Never deployed: wrangler.toml's `main` stays src/worker.ts; the bench starts this file with `wrangler dev`.

import { shiftBreaks, shifts } from "@db/schema";
import { getTableColumns, getTableName, is, SQL, type Table } from "drizzle-orm";
import type { ShiftBreakRow, ShiftRow } from "@/wire/shift.schemas";
import { forgetKnownDevices } from "../src/auth/device-auth";
import { createDatabase } from "../src/data/client";
import { D1_LIMITS } from "../src/data/d1-limits";
import { partBytesOf } from "../src/data/files";
import { newId } from "../src/data/ids";
import type { WakeUp } from "../src/data/outbox/wake";
import { shardBinding, shardConfig } from "../src/data/shards";
import { businessDate } from "../src/domain/local-time";
import { closeShift, type ShiftBreak } from "../src/domain/shift-totals";
import { chunkRows, runExportChunk } from "../src/features/exports/export-chunk";
import { type AssembleState, assembleStep } from "../src/features/pay/pay-close-assemble.data";
import {
  type CloseJobParams,
  cleanCloseJob,
  commitCloseJob,
  type Planned,
  planCloseJob,
  type StagedPart,
  stageEmployees,
} from "../src/features/pay/pay-close-job.data";
import { type PassPage, runAccrualPass } from "../src/jobs/accrual-pass";
import { runAttendancePass } from "../src/jobs/attendance-pass";
import worker from "../src/worker";
// Plain JS module shared with the baseline Worker (bench-only copy endpoints).
import { benchCopyEndpoint } from "./baseline/d1-rows.js";
import { benchEntry, FORGET_DEVICES_HEADER, TRACE_HEADER } from "./bench-entry.js";

interface RoundTrip {
  /** How the Worker reached D1: "batch", "all", "run", "first", "raw", "exec" or "dump". */
  call: string;
  /** SQL of each statement of this round trip (one, or a batch's list). */
  statements: string[];
  /** The values bound to each statement, in the same order. */
  params: unknown[][];
  /**
   * D1's `meta.rows_read` / `meta.rows_written` per statement. `first`/`raw` answer no meta: for a SELECT, rows_read
   * is then taken from a shadow `.all()` of the same bound statement (see `shadowRead`), never counted as a round trip.
   */
  rowsRead: (number | null)[];
  rowsWritten: (number | null)[];
  /** Rows each statement answered (results of all/batch, arrays of raw, 0 or 1 for first). */
  rowsReturned: (number | null)[];
  /** D1's `meta.duration` per statement (ms of SQL execution; for first/raw, the shadow `.all()`'s). */
  sqlMs?: (number | null)[];
  /** True when rowsRead comes from that shadow `.all()` (traced requests only; a SELECT has no side effect). */
  shadowRead?: boolean;
  /**
   * Where D1 may serve it, deployed with read replicas: a trip with a write, or the first of a `first-primary`
   * session, goes to the primary; any other read of a session may be answered by a replica as fresh as the session.
   * "directory": the read of the organization's shard (src/platform/middleware/database.ts), replica-eligible, counted apart.
   */
  kind?: "primary" | "replica-eligible" | "directory";
  /** The D1 binding (shard) it reached. */
  binding?: string;
}

/** Where round trips are logged: the request's log, or a session's view of it that classifies each trip. */
type TripLog = Pick<RoundTrip[], "push">;

const writes = (sql: string) => /^\s*(insert|update|delete|replace)\b/i.test(sql);

/** The Cron's passes the bench runs on their own, counted: POST {now}. */
const PASSES: Record<string, (db: ReturnType<typeof createDatabase>, now: Date, page?: PassPage) => Promise<unknown>> = {
  "/__bench/accrual-pass": (db, now, page) => runAccrualPass(db, now, { page }),
  "/__bench/attendance-pass": runAttendancePass,
};
/**
 * Recorded traces by id, kept small: the bench reads each right after its request, and reading one forgets it. Each
 * holds its round trips' SQL and values (an accrual page's: 1.3 MB of JSON), and the isolate's heap is what the scale
 * scenario measures: traces kept from earlier requests would count there, growing with the organization's pages.
 */
const traces = new Map<string, RoundTrip[]>();
const MAX_TRACES = 100;

function keepTrace(id: string, log: RoundTrip[]) {
  traces.set(id, log);
  while (traces.size > MAX_TRACES) traces.delete(traces.keys().next().value!);
}

/** Maps a wrapped statement back to the real one, since D1's batch only accepts its own statements. */
const realStatement = new WeakMap<object, D1PreparedStatement>();
const statementSql = new WeakMap<object, string>();
const statementParams = new WeakMap<object, unknown[]>();

type Meta = { meta?: { rows_read?: number; rows_written?: number; duration?: number }; results?: unknown[] } | undefined;

const isSelect = (sql: string) => /^\s*(select|with)\b/i.test(sql) && !/\breturning\b/i.test(sql);

/**
 * Logs a round trip when the call is made, and its rows read/written/returned when D1 answers. `shadow` (first/raw
 * of a SELECT) runs the same statement once more with `.all()` for its meta, before the caller sees the result.
 */
function record<T>(
  log: TripLog,
  call: string,
  statements: string[],
  params: unknown[][],
  result: Promise<T>,
  shadow?: () => Promise<D1Result>,
): Promise<T> {
  const none = () => statements.map(() => null);
  const trip: RoundTrip = { call, statements, params, rowsRead: none(), rowsWritten: none(), rowsReturned: none() };
  log.push(trip);
  return result.then(async (value) => {
    if (call === "first" || call === "raw") {
      trip.rowsReturned = [call === "raw" ? (value as unknown[]).length : value === null ? 0 : 1];
      if (shadow) {
        const meta = (await shadow()).meta;
        trip.rowsRead = [meta.rows_read ?? null];
        trip.rowsWritten = [meta.rows_written ?? null];
        trip.sqlMs = [meta.duration ?? null];
        trip.shadowRead = true;
      }
      return value;
    }
    const metas = (call === "batch" ? value : [value]) as Meta[];
    if (Array.isArray(metas)) {
      trip.rowsRead = metas.map((m) => m?.meta?.rows_read ?? null);
      trip.rowsWritten = metas.map((m) => m?.meta?.rows_written ?? null);
      trip.rowsReturned = metas.map((m) => m?.results?.length ?? null);
      trip.sqlMs = metas.map((m) => m?.meta?.duration ?? null);
    }
    return value;
  });
}

function wrapStatement(statement: D1PreparedStatement, sql: string, log: TripLog, params: unknown[] = []): D1PreparedStatement {
  const shadow = isSelect(sql) ? () => statement.all() : undefined;
  const one = <T>(call: string, result: Promise<T>) =>
    record(log, call, [sql], [params], result, call === "first" || call === "raw" ? shadow : undefined);
  const wrapped = {
    bind: (...values: unknown[]) => wrapStatement(statement.bind(...values), sql, log, values),
    all: () => one("all", statement.all()),
    run: () => one("run", statement.run()),
    first: (...args: [string?]) => one("first", (statement.first as (...a: unknown[]) => Promise<unknown>)(...args)),
    raw: (...args: [{ columnNames?: boolean }?]) => one("raw", (statement.raw as (...a: unknown[]) => Promise<unknown>)(...args)),
  } as unknown as D1PreparedStatement;
  realStatement.set(wrapped, statement);
  statementSql.set(wrapped, sql);
  statementParams.set(wrapped, params);
  return wrapped;
}

const readsDirectory = (trip: RoundTrip) => trip.statements.some((sql) => /\borganization_directory\b/.test(sql));

/** A request's D1 session (src/platform/middleware/database.ts) with every call counted and classified by where it may run. */
function countingSession(session: D1DatabaseSession, anchor: string | undefined, log: TripLog): D1DatabaseSession {
  let trips = 0;
  let directory = false;
  const sessionLog: TripLog = {
    push: (...added: RoundTrip[]) => {
      for (const trip of added) {
        // A session opened to read the directory: its first statement reads it, and it only reads.
        if (trips === 0 && readsDirectory(trip) && !trip.statements.some(writes)) directory = true;
        trip.kind = directory
          ? "directory"
          : trip.statements.some(writes) || (trips === 0 && anchor === "first-primary")
            ? "primary"
            : "replica-eligible";
        trips++;
      }
      return log.push(...added);
    },
  };
  return {
    prepare: (sql: string) => wrapStatement(session.prepare(sql), sql, sessionLog),
    batch: (statements: D1PreparedStatement[]) =>
      record(
        sessionLog,
        "batch",
        statements.map((s) => statementSql.get(s) ?? "(unwrapped)"),
        statements.map((s) => statementParams.get(s) ?? []),
        session.batch(statements.map((s) => realStatement.get(s) ?? s)),
      ),
    getBookmark: () => session.getBookmark(),
  } as unknown as D1DatabaseSession;
}

/** A D1 binding with every D1 call counted, those of its sessions included, each trip naming `binding`. */
function countingDatabase(db: D1Database, requestLog: RoundTrip[], binding = "DB"): D1Database {
  const log: TripLog = { push: (...trips: RoundTrip[]) => requestLog.push(...trips.map((trip) => Object.assign(trip, { binding }))) };
  return new Proxy(db, {
    get(target, property) {
      switch (property) {
        case "prepare":
          return (sql: string) => wrapStatement(target.prepare(sql), sql, log);
        case "batch":
          return (statements: D1PreparedStatement[]) =>
            record(
              log,
              "batch",
              statements.map((s) => statementSql.get(s) ?? "(unwrapped)"),
              statements.map((s) => statementParams.get(s) ?? []),
              target.batch(statements.map((s) => realStatement.get(s) ?? s)),
            );
        case "exec":
          return (sql: string) => record(log, "exec", [sql], [[]], target.exec(sql));
        case "dump":
          return () => record(log, "dump", [], [], target.dump());
        case "withSession":
          return (anchor?: string) => countingSession(target.withSession(anchor), anchor, log);
        default: {
          const value = Reflect.get(target, property, target);
          return typeof value === "function" ? value.bind(target) : value;
        }
      }
    },
  });
}

/** One shift to seed: what a finished clock-in/clock-out (with breaks) would have recorded. */
interface SeedShift {
  employeeId: string;
  locationId: string;
  roleId: string;
  /** UTC start, epoch ms. */
  startAt: number;
  minutes: number;
  /** Minutes east of UTC at the start (the location's zone then). */
  utcOffset: number;
  hourlyWage: number;
  flags?: string[];
  breaks?: { afterMinutes: number; minutes: number; paid: boolean; name: string }[];
  /** The cost code and the wage rate the shift was charged and paid at (the labor-cost scenario), else none. */
  costCodeId?: string | null;
  wageRateId?: string | null;
}

/** Rows a seeding INSERT takes as one JSON parameter (a few hundred kB: local D1 holds no statement to D1's sizes). */
const SEED_ROWS_PER_STATEMENT = 1000;

/**
 * INSERT statements of `rows` (objects as drizzle's table takes them: its column keys, JS values) into `table`: each
 * value mapped to what drizzle would bind (timestamps to ms, booleans to 0/1, JSON to text), SEED_ROWS_PER_STATEMENT
 * rows a statement as one JSON array read back by json_each.
 */
function jsonInsertStatements(binding: D1Database, table: Table, rows: Record<string, unknown>[]): D1PreparedStatement[] {
  // A column the rows leave out whose default is SQL (e.g. shifts.breaks_json, kept by triggers) is left to the database.
  const columns = Object.entries(getTableColumns(table)).filter(([key, c]) => rows[0]?.[key] !== undefined || !is(c.default, SQL));
  const names = columns.map(([, c]) => `"${c.name}"`).join(", ");
  const values = columns.map((_, i) => `json_extract(value, '$[${i}]')`).join(", ");
  const sqlText = `INSERT INTO "${getTableName(table)}" (${names}) SELECT ${values} FROM json_each(?)`;
  const statements: D1PreparedStatement[] = [];
  for (let i = 0; i < rows.length; i += SEED_ROWS_PER_STATEMENT) {
    const part = rows.slice(i, i + SEED_ROWS_PER_STATEMENT).map((row) =>
      columns.map(([key, c]) => {
        const v = row[key] !== undefined ? row[key] : c.defaultFn ? c.defaultFn() : c.default;
        return v === undefined || v === null ? null : c.mapToDriverValue(v);
      }),
    );
    statements.push(binding.prepare(sqlText).bind(JSON.stringify(part)));
  }
  return statements;
}

/** Statements per D1 batch while seeding (one round trip, one transaction each). */
const SEED_STATEMENTS_PER_BATCH = 50;

/**
 * POST /__bench/seed-shifts {organizationId, shifts: SeedShift[]}: closed shifts with their breaks, totals from the
 * domain's closeShift, rows as drizzle maps them, written 1,000 a statement as one JSON parameter (jsonInsertStatements),
 * batched. Answers how many rows and statements, and the most parameters any statement bound (1; D1 refuses over 100).
 */
async function seedShifts(binding: D1Database, body: { organizationId: string; shifts: SeedShift[] }) {
  const shiftRows: ShiftRow[] = [];
  const breakRows: ShiftBreakRow[] = [];
  for (const s of body.shifts) {
    const start = new Date(s.startAt);
    const end = new Date(s.startAt + s.minutes * 60_000);
    const breaks: ShiftBreak[] = (s.breaks ?? []).map((b) => ({
      startTime: new Date(s.startAt + b.afterMinutes * 60_000),
      endTime: new Date(s.startAt + (b.afterMinutes + b.minutes) * 60_000),
      paid: b.paid,
      typeId: null,
      name: b.name,
      mandatory: false,
      frequencyMinutes: 0,
      durationInSettingsMinutes: b.minutes,
    }));
    const closed = closeShift({ start, end, breaks, breakTypes: [] });
    const id = newId();
    shiftRows.push({
      id,
      organizationId: body.organizationId,
      employeeId: s.employeeId,
      locationId: s.locationId,
      roleId: s.roleId,
      startAt: start,
      endAt: end,
      utcOffset: s.utcOffset,
      businessDate: businessDate(start, s.utcOffset),
      hourlyWage: s.hourlyWage,
      costCodeId: s.costCodeId ?? null,
      wageRateId: s.wageRateId ?? null,
      ...closed.totals,
      flags: s.flags ?? [],
      manualEntry: false,
      active: false,
      createdAt: start,
      updatedAt: end,
      deletedAt: null,
    });
    for (const b of closed.breaks) {
      breakRows.push({
        id: newId(),
        organizationId: body.organizationId,
        shiftId: id,
        typeId: null,
        name: b.name,
        paid: b.paid,
        mandatory: b.mandatory,
        frequencyMinutes: b.frequencyMinutes,
        durationInSettingsMinutes: b.durationInSettingsMinutes,
        startAt: b.startTime,
        endAt: b.endTime,
        automatic: false,
      });
    }
  }
  // Rows as JSON, SEED_ROWS_PER_STATEMENT a statement of one bound parameter: the 100-parameter multi-row INSERTs of
  // src's builders (4 shifts or 8 breaks a statement) made seeding 500,000 shifts take most of an hour.
  const statements = [
    ...jsonInsertStatements(binding, shifts, shiftRows as unknown as Record<string, unknown>[]),
    ...jsonInsertStatements(binding, shiftBreaks, breakRows as unknown as Record<string, unknown>[]),
  ];
  const maxBoundParameters = statements.length > 0 ? 1 : 0;
  let batches = 0;
  for (let i = 0; i < statements.length; i += SEED_STATEMENTS_PER_BATCH) {
    await binding.batch(statements.slice(i, i + SEED_STATEMENTS_PER_BATCH));
    batches++;
  }
  return { shifts: shiftRows.length, breaks: breakRows.length, statements: statements.length, batches, maxBoundParameters };
}

/**
 * POST /__bench/seed-events {organizationId, count, type, data}: `count` events after the organization's last
 * sequence, each with the same `data` (a JSON text, stored as the API answers it), in one INSERT … SELECT over a
 * recursive counter. Answers the first and last sequence.
 */
async function seedEvents(binding: D1Database, body: { organizationId: string; count: number; type: string; data: string }) {
  const { organizationId, count, type, data } = body;
  const last = await binding
    .prepare("SELECT coalesce(max(sequence), 0) AS last FROM events WHERE organization_id = ?")
    .bind(organizationId)
    .first<{ last: number }>();
  const base = last!.last;
  await binding
    .prepare(
      `WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n WHERE i < ?)
       INSERT INTO events (id, organization_id, sequence, type, occurred_at, form, data)
       SELECT ? || i, ?, ? + i, ?, ?, 'wire', ? FROM n`,
    )
    .bind(count, `${newId()}.`, organizationId, base, type, Date.now(), data)
    .run();
  return { first: base + 1, last: base + count };
}

/**
 * Export jobs the bench works itself (POST /__bench/exports-by-bench, then /__bench/export-chunk {exportId} per chunk,
 * traced): from then on the queue consumer acks their messages without working them, so that no chunk runs unmeasured
 * in the background.
 */
let exportsByBench = false;

/**
 * Close jobs the bench works itself (POST /__bench/close-jobs-by-bench, then /__bench/close-step per step, traced):
 * from then on a close that starts a job hands its Workflow's parameters to the bench instead of a Workflow instance,
 * so that no step runs unmeasured in the background. Each step is the function the Workflow's step calls.
 */
let closeJobsByBench = false;
const closeJobs = new Map<string, CloseJobParams>();
const benchWorkflow = {
  create: async ({ id, params }: { id: string; params: CloseJobParams }) => {
    closeJobs.set(id, params);
    return { id };
  },
} as unknown as Workflow<CloseJobParams>;

interface CloseStepBody {
  jobId: string;
  step: "plan" | "employees" | "assemble" | "commit" | "clean";
  /** The assemble step's number (from 1) and what the one before it handed on. */
  k?: number;
  carried?: AssembleState | null;
  plan?: Extract<Planned, { ok: true }>;
  n?: number;
  afterId?: string | null;
  parts?: StagedPart[];
  closed?: Parameters<typeof commitCloseJob>[3];
}

async function runCloseStep(env: Env, body: CloseStepBody, log: RoundTrip[]) {
  const p = closeJobs.get(body.jobId);
  if (!p) throw new Error(`No close job ${body.jobId} was started by the bench.`);
  const db = createDatabase(countingDatabase(shardBinding(env, shardConfig(env).placement), log));
  const c = { writer: { db, principal: p.principal }, files: env.FILES };
  if (body.step === "plan") return planCloseJob(c, p);
  if (body.step === "employees") return stageEmployees(c, p, body.plan!, body.n!, body.afterId ?? null);
  if (body.step === "assemble") return assembleStep(c, p, body.plan!, body.parts!, body.k!, body.carried ?? null);
  if (body.step === "commit") return commitCloseJob(c, p, body.plan!, body.closed!);
  await cleanCloseJob(c, p);
  return { cleaned: true };
}

/** Bench endpoints and traced requests (bench-entry.js sends only those here; the load goes to the real fetch). */
async function special(request: Request, env: Env, ctx: ExecutionContext): Promise<Response> {
  const url = new URL(request.url);
  // A kiosk punch as before its device was read in the punch's read batch: the device unknown, looked up on its own.
  if (request.headers.has(FORGET_DEVICES_HEADER)) {
    forgetKnownDevices();
    if (!request.headers.has(TRACE_HEADER)) return worker.fetch(request, env, ctx);
  }
  if (url.pathname.startsWith("/__bench/")) {
    const data = shardBinding(env, shardConfig(env).placement);
    const traced = url.pathname.match(/^\/__bench\/trace\/([\w-]+)$/);
    if (traced) {
      const trace = traces.get(traced[1]!);
      traces.delete(traced[1]!);
      return trace ? Response.json({ roundTrips: trace }) : new Response("unknown trace", { status: 404 });
    }
    // A full garbage collection (workerd started with --expose-gc: bench/lib/servers.mjs), before a watched call.
    if (url.pathname === "/__bench/gc") {
      const gc = (globalThis as { gc?: () => void }).gc;
      gc?.();
      return Response.json({ collected: typeof gc === "function" });
    }
    // The guard's numbers (src/data/d1-limits.ts), for the scale scenario's verdicts.
    if (url.pathname === "/__bench/limits") return Response.json(D1_LIMITS);
    if (url.pathname === "/__bench/explain" && request.method === "POST") {
      // The plan of one statement (EXPLAIN runs nothing): {sql, params} → [{id, parent, detail}].
      const { sql, params = [] } = await request.json<{ sql: string; params?: unknown[] }>();
      const { results } = await data
        .prepare(`EXPLAIN QUERY PLAN ${sql}`)
        .bind(...params)
        .all();
      return Response.json(results);
    }
    if (url.pathname === "/__bench/sql" && request.method === "POST") {
      // One statement, bound: {sql, params} → {results, rowsRead, rowsWritten}.
      const { sql, params = [] } = await request.json<{ sql: string; params?: unknown[] }>();
      const { results, meta } = await data
        .prepare(sql)
        .bind(...params)
        .all();
      return Response.json({ results, rowsRead: meta.rows_read, rowsWritten: meta.rows_written });
    }
    if (url.pathname === "/__bench/replay" && request.method === "POST") {
      // Traced round trips sent again as they were (a batch as one batch), every row answered as JSON: the raw SQL
      // of a request with nothing around it. {trips: [{call, statements, params}]} → {rows: [[row]] per statement}.
      const { trips } = await request.json<{ trips: Pick<RoundTrip, "call" | "statements" | "params">[] }>();
      const rows: unknown[][] = [];
      for (const trip of trips) {
        const bound = trip.statements.map((sql, i) => data.prepare(sql).bind(...(trip.params[i] ?? [])));
        const results = trip.call === "batch" ? await data.batch(bound) : [await bound[0]!.all()];
        rows.push(...results.map((r) => r.results));
      }
      return Response.json({ rows });
    }
    const pass = PASSES[url.pathname];
    if (pass && request.method === "POST") {
      // A Cron pass at {now}, counted: {report, seconds, roundTrips, statements, rowsRead, rowsWritten}.
      // {now, page?}: a page of the accrual pass (PassPage) when given.
      const { now, page } = await request.json<{ now: string; page?: PassPage }>();
      const log: RoundTrip[] = [];
      const started = performance.now();
      const report = await pass(createDatabase(countingDatabase(data, log)), new Date(now), page);
      const seconds = (performance.now() - started) / 1000;
      // With X-Bench-Trace, its round trips are kept like a traced request's (the scale scenario reads them).
      const passTrace = request.headers.get(TRACE_HEADER);
      if (passTrace) keepTrace(passTrace, log);
      const sum = (xs: (number | null)[]) => xs.reduce<number>((a, b) => a + (b ?? 0), 0);
      return Response.json({
        report,
        seconds,
        roundTrips: log.length,
        statements: log.reduce((n, t) => n + t.statements.length, 0),
        rowsRead: sum(log.flatMap((t) => t.rowsRead)),
        rowsWritten: sum(log.flatMap((t) => t.rowsWritten)),
      });
    }
    if (url.pathname === "/__bench/seed-events" && request.method === "POST") {
      return Response.json(await seedEvents(data, await request.json()));
    }
    if (url.pathname === "/__bench/exports-by-bench" && request.method === "POST") {
      exportsByBench = true;
      return Response.json({ exportsByBench });
    }
    if (url.pathname === "/__bench/close-jobs-by-bench" && request.method === "POST") {
      closeJobsByBench = true;
      return Response.json({ closeJobsByBench });
    }
    if (url.pathname === "/__bench/close-step" && request.method === "POST") {
      // One step of a close job as the Workflow runs it, counted (traced with X-Bench-Trace): the step's result.
      const log: RoundTrip[] = [];
      const result = await runCloseStep(env, await request.json<CloseStepBody>(), log);
      const stepTrace = request.headers.get(TRACE_HEADER);
      if (stepTrace) keepTrace(stepTrace, log);
      return Response.json(result);
    }
    if (url.pathname === "/__bench/export-chunk" && request.method === "POST") {
      // One chunk of an export job as the queue consumer works it, counted (traced with X-Bench-Trace): {next}.
      const { exportId } = await request.json<{ exportId: string }>();
      const log: RoundTrip[] = [];
      const next = await runExportChunk(createDatabase(countingDatabase(data, log)), env.FILES, exportId, chunkRows(env), partBytesOf(env));
      const chunkTrace = request.headers.get(TRACE_HEADER);
      if (chunkTrace) keepTrace(chunkTrace, log);
      return Response.json({ next });
    }
    if (url.pathname === "/__bench/seed-shifts" && request.method === "POST") {
      try {
        return Response.json(await seedShifts(data, await request.json()));
      } catch (error) {
        return Response.json({ error: String(error) }, { status: 500 });
      }
    }
    return (await benchCopyEndpoint(request, data)) ?? new Response("unknown bench endpoint", { status: 404 });
  }
  const traceId = request.headers.get(TRACE_HEADER);
  if (!traceId) return worker.fetch(request, env, ctx);

  const log: RoundTrip[] = [];
  const counting = shardConfig(env).shards.map((shard) => [shard, countingDatabase(shardBinding(env, shard), log, shard)]);
  const workflow = closeJobsByBench ? { PAY_CLOSE_WORKFLOW: benchWorkflow } : {};
  const response = await worker.fetch(request, { ...env, ...Object.fromEntries(counting), ...workflow }, ctx);
  keepTrace(traceId, log);
  const counted = new Response(response.body, response);
  counted.headers.set("X-D1-Round-Trips", String(log.length));
  counted.headers.set("X-D1-Statements", String(log.reduce((n, trip) => n + trip.statements.length, 0)));
  counted.headers.set("X-D1-Primary-Round-Trips", String(log.filter((trip) => trip.kind === undefined || trip.kind === "primary").length));
  counted.headers.set("X-D1-Directory-Round-Trips", String(log.filter((trip) => trip.kind === "directory").length));
  return counted;
}

// The load goes straight to the real Worker's fetch behind the door every Worker of the bench has (bench-entry.js).
export default benchEntry(
  {
    fetch: worker.fetch,
    scheduled: worker.scheduled,
    async queue(batch, env, ctx) {
      if (exportsByBench && batch.messages.some((message) => "exportId" in (message.body as object))) {
        for (const message of batch.messages) message.ack();
        return;
      }
      return worker.queue!(batch, env, ctx);
    },
  } satisfies ExportedHandler<Env, WakeUp>,
  special,
) as ExportedHandler<Env, WakeUp>;

// wrangler.toml's [[workflows]] names this class of the Worker's entry.
export { AccrualWorkflow, BulkWorkflow, PayCloseWorkflow } from "../src/worker";
