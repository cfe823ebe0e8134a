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
}

const TRACE_HEADER = "x-bench-trace";
/** Recorded traces by id, kept small: the bench reads each right after its request. */
const traces = new Map<string, RoundTrip[]>();
const MAX_TRACES = 100;

/** Maps a wrapped statement back to the real one, since D1's batch only accepts its own statements. */
const realStatement = new WeakMap<object, D1PreparedStatement>();
const statementSql = new WeakMap<object, string>();
const statementParams = new WeakMap<object, unknown[]>();

function wrapStatement(statement: D1PreparedStatement, sql: string, log: RoundTrip[], params: unknown[] = []): D1PreparedStatement {
  const trip = (call: string) => log.push({ call, statements: [sql], params: [params] });
  const wrapped = {
    bind: (...values: unknown[]) => wrapStatement(statement.bind(...values), sql, log, values),
    all: (...args: []) => {
      trip("all");
      return statement.all(...args);
    },
    run: (...args: []) => {
      trip("run");
      return statement.run(...args);
    },
    first: (...args: [string?]) => {
      trip("first");
      return (statement.first as (...a: unknown[]) => unknown)(...args);
    },
    raw: (...args: [{ columnNames?: boolean }?]) => {
      trip("raw");
      return (statement.raw as (...a: unknown[]) => unknown)(...args);
    },
  } as unknown as D1PreparedStatement;
  realStatement.set(wrapped, statement);
  statementSql.set(wrapped, sql);
  statementParams.set(wrapped, params);
  return wrapped;
}

function countingDatabase(db: D1Database, log: RoundTrip[]): D1Database {
  return new Proxy(db, {
    get(target, property) {
      switch (property) {
        case "prepare":
          return (sql: string) => wrapStatement(target.prepare(sql), sql, log);
        case "batch":
          return (statements: D1PreparedStatement[]) => {
            log.push({
              call: "batch",
              statements: statements.map((s) => statementSql.get(s) ?? "(unwrapped)"),
              params: statements.map((s) => statementParams.get(s) ?? []),
            });
            return target.batch(statements.map((s) => realStatement.get(s) ?? s));
          };
        case "exec":
          return (sql: string) => {
            log.push({ call: "exec", statements: [sql], params: [[]] });
            return target.exec(sql);
          };
        case "dump":
          return () => {
            log.push({ call: "dump", statements: [], params: [] });
            return target.dump();
          };
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
