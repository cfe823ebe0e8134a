import { env } from "cloudflare:test";
import { app } from "../../src/app";

type Call = "all" | "run" | "first" | "raw";

/**
 * Sends a request to the app with a D1 binding that records each round trip (a batch, or one statement run on
 * its own) as the SQL of its statements. The real statements reach D1, so the request behaves as usual.
 */
export async function recordingRequest(
  method: string,
  path: string,
  options: { token: string; body?: unknown; headers?: Record<string, string>; env?: Partial<Env>; ctx?: ExecutionContext },
) {
  const trips: string[][] = [];
  /** What each D1 session of the request was anchored at: a constraint or the client's bookmark. */
  const sessions: (string | undefined)[] = [];
  const sqlOf = new WeakMap<D1PreparedStatement, string>();
  const track = (statement: D1PreparedStatement, sql: string): D1PreparedStatement => {
    sqlOf.set(statement, sql);
    const bind = statement.bind.bind(statement);
    statement.bind = (...values: unknown[]) => track(bind(...values), sql);
    for (const call of ["all", "run", "first", "raw"] as Call[]) {
      const original = (statement[call] as (...args: unknown[]) => Promise<unknown>).bind(statement);
      Object.assign(statement, { [call]: (...args: unknown[]) => (trips.push([sql]), original(...args)) });
    }
    return statement;
  };
  // The app runs every request in a D1 session (src/middleware/db.ts): the session's calls are the ones tracked.
  const db = {
    withSession: (constraintOrBookmark?: string) => {
      sessions.push(constraintOrBookmark);
      const session = env.DB.withSession(constraintOrBookmark);
      return {
        prepare: (sql: string) => track(session.prepare(sql), sql),
        batch: (statements: D1PreparedStatement[]) => {
          trips.push(statements.map((s) => sqlOf.get(s) ?? "?"));
          return session.batch(statements);
        },
        getBookmark: () => session.getBookmark(),
      };
    },
  };
  const headers = new Headers(options.headers);
  headers.set("Authorization", `Bearer ${options.token}`);
  headers.set("Content-Type", "application/json");
  const init = { method, headers, body: options.body === undefined ? undefined : JSON.stringify(options.body) };
  const response = await app.request(`http://shiftline.test${path}`, init, { ...env, ...options.env, DB: db }, options.ctx);
  return { status: response.status, body: await response.json<Record<string, unknown>>(), trips, sessions, headers: response.headers };
}
