// The one wrapper every Worker of the bench runs behind (ours in counting-entry.ts, the hono-only Worker and the
// baseline), so that what the bench adds to a measured request is the same on all three: one header lookup, one look
// at the URL and one call. Requests with `X-Bench-Trace` or to `/__bench/…` go to `special` (counting, copying rows);
// the load sends neither, so it reaches each Worker's own fetch.

export const TRACE_HEADER = "x-bench-trace";
/** Our Worker only: forget the devices the isolate knows before this request (the kiosk scenario's "device apart"). */
export const FORGET_DEVICES_HEADER = "x-bench-forget-devices";

/** `worker` with its fetch behind the bench's common door; its other handlers (scheduled, queue) as they are. */
export function benchEntry(worker, special) {
  return {
    ...worker,
    fetch(request, env, ctx) {
      if (request.headers.has(TRACE_HEADER) || request.headers.has(FORGET_DEVICES_HEADER) || request.url.includes("/__bench/")) {
        return special(request, env, ctx);
      }
      return worker.fetch(request, env, ctx);
    },
  };
}

const realStatement = new WeakMap();
const statementSql = new WeakMap();

/** A D1 binding whose sessions log the SQL of each round trip (the baseline's and hono-only's traced requests). */
function recordingDatabase(db, log) {
  const statement = (real, sql) => {
    const wrapped = {
      bind: (...values) => statement(real.bind(...values), sql),
      all: () => (log.push({ call: "all", statements: [sql] }), real.all()),
      run: () => (log.push({ call: "run", statements: [sql] }), real.run()),
      first: (...args) => (log.push({ call: "first", statements: [sql] }), real.first(...args)),
      raw: (...args) => (log.push({ call: "raw", statements: [sql] }), real.raw(...args)),
    };
    realStatement.set(wrapped, real);
    statementSql.set(wrapped, sql);
    return wrapped;
  };
  const session = (real) => ({
    prepare: (sql) => statement(real.prepare(sql), sql),
    batch: (statements) => {
      log.push({ call: "batch", statements: statements.map((s) => statementSql.get(s) ?? "(unwrapped)") });
      return real.batch(statements.map((s) => realStatement.get(s) ?? s));
    },
    getBookmark: () => real.getBookmark?.() ?? null,
  });
  return { ...session(db), withSession: (anchor) => session(db.withSession(anchor)) };
}

/**
 * `fetch` with the bench's statement trace, for the baseline and the hono-only Worker: a request with `X-Bench-Trace`
 * runs with `env.DB` logging each round trip's SQL, answered at `GET /__bench/trace/{id}` as ours answers its own
 * (counting-entry.ts), so every run can check that the three Workers send the same statements.
 */
export function tracing(fetch) {
  const traces = new Map();
  return async (request, env, ctx) => {
    const id = request.headers.get(TRACE_HEADER);
    if (id === null) {
      const asked = /^\/__bench\/trace\/([\w-]+)$/.exec(new URL(request.url).pathname);
      if (!asked) return fetch(request, env, ctx);
      const roundTrips = traces.get(asked[1]);
      return roundTrips ? Response.json({ roundTrips }) : new Response("unknown trace", { status: 404 });
    }
    const log = [];
    const response = await fetch(request, { ...env, DB: recordingDatabase(env.DB, log) }, ctx);
    traces.set(id, log);
    if (traces.size > 100) traces.delete(traces.keys().next().value);
    return response;
  };
}
