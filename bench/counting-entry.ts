// Bench-only entry: the real Worker (src/index.ts) with an opt-in D1 round-trip counter.
//
// A request without the `X-Bench-Trace` header goes to the real Worker's fetch untouched (same env, same binding),
// so the load the bench measures runs exactly the production code path. A request WITH the header gets an env
// whose DB binding is wrapped: every call that reaches D1 (`batch`, `exec`, `dump` and a prepared statement's
// `all`/`run`/`first`/`raw`) counts as one round trip, and the SQL of each is recorded. The response carries
// `X-D1-Round-Trips` and `X-D1-Statements`, and `GET /__bench/trace/{traceId}` answers the recorded SQL and values.
// `GET /__bench/dump` (see baseline/d1-rows.js) lets the bench copy the seeded rows into the baseline's database.
//
// Never deployed: wrangler.toml's `main` stays src/index.ts; the bench starts this file with `wrangler dev`.
import worker from "../src/index";
// Plain JS module shared with the baseline Worker (bench-only copy endpoints).
import { benchCopyEndpoint } from "./baseline/d1-rows.js";

interface RoundTrip {
  /** How the Worker reached D1: "batch", "all", "run", "first", "raw", "exec" or "dump". */
  call: string;
  /** SQL of each statement of this round trip (one, or a batch's list). */
  statements: string[];
  /** The values bound to each statement, in the same order. */
  params: unknown[][];
  /** D1's `meta.rows_read` / `meta.rows_written` per statement, where the call's result carries meta (not first/raw). */
  rowsRead: (number | null)[];
  rowsWritten: (number | null)[];
}

const TRACE_HEADER = "x-bench-trace";
/** Recorded traces by id, kept small: the bench reads each right after its request. */
const traces = new Map<string, RoundTrip[]>();
const MAX_TRACES = 100;

/** Maps a wrapped statement back to the real one, since D1's batch only accepts its own statements. */
const realStatement = new WeakMap<object, D1PreparedStatement>();
const statementSql = new WeakMap<object, string>();
const statementParams = new WeakMap<object, unknown[]>();

type Meta = { meta?: { rows_read?: number; rows_written?: number } } | undefined;

/** Logs a round trip when the call is made, and its rows read/written when D1 answers. */
function record<T>(log: RoundTrip[], call: string, statements: string[], params: unknown[][], result: Promise<T>): Promise<T> {
  const trip: RoundTrip = { call, statements, params, rowsRead: statements.map(() => null), rowsWritten: statements.map(() => null) };
  log.push(trip);
  return result.then((value) => {
    const metas = (call === "batch" ? value : [value]) as Meta[];
    if (call !== "first" && call !== "raw" && Array.isArray(metas)) {
      trip.rowsRead = metas.map((m) => m?.meta?.rows_read ?? null);
      trip.rowsWritten = metas.map((m) => m?.meta?.rows_written ?? null);
    }
    return value;
  });
}

function wrapStatement(statement: D1PreparedStatement, sql: string, log: RoundTrip[], params: unknown[] = []): D1PreparedStatement {
  const one = <T>(call: string, result: Promise<T>) => record(log, call, [sql], [params], result);
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

/**
 * The DB binding with every D1 call counted. (`withSession` is passed through uncounted: nothing in src/ uses it;
 * count it here too if that changes.)
 */
function countingDatabase(db: D1Database, log: RoundTrip[]): D1Database {
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
        default: {
          const value = Reflect.get(target, property, target);
          return typeof value === "function" ? value.bind(target) : value;
        }
      }
    },
  });
}

export default {
  async fetch(request, env, ctx) {
    const url = new URL(request.url);
    if (url.pathname.startsWith("/__bench/")) {
      const traced = url.pathname.match(/^\/__bench\/trace\/([\w-]+)$/);
      if (traced) {
        const trace = traces.get(traced[1]!);
        return trace ? Response.json({ roundTrips: trace }) : new Response("unknown trace", { status: 404 });
      }
      return (await benchCopyEndpoint(request, env.DB)) ?? new Response("unknown bench endpoint", { status: 404 });
    }
    const traceId = request.headers.get(TRACE_HEADER);
    if (!traceId) return worker.fetch(request, env, ctx);

    const log: RoundTrip[] = [];
    const response = await worker.fetch(request, { ...env, DB: countingDatabase(env.DB, log) }, ctx);
    traces.set(traceId, log);
    while (traces.size > MAX_TRACES) traces.delete(traces.keys().next().value!);
    const counted = new Response(response.body, response);
    counted.headers.set("X-D1-Round-Trips", String(log.length));
    counted.headers.set("X-D1-Statements", String(log.reduce((n, trip) => n + trip.statements.length, 0)));
    return counted;
  },
  scheduled: worker.scheduled,
} satisfies ExportedHandler<Env>;
