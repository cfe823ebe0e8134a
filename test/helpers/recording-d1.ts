import { env } from "cloudflare:test";
import { app } from "@/app";
import { limitedEnv } from "@/data/limited-d1";
import { shardBinding } from "@/data/shards";
import { shardNames } from "./shards";

type Call = "all" | "run" | "first" | "raw";

export interface RecordedSession {
  /** The D1 binding (shard) the session ran on. */
  shard: string;
  /** What it was anchored at: a constraint or the client's bookmark. */
  anchor: string | undefined;
}

/**
 * Sends a request to the app with every shard's D1 binding recording each round trip (a batch, or one statement
 * run on its own) as the SQL of its statements. The real statements reach D1, so the request behaves as usual.
 * A session whose first statement reads the directory (src/platform/middleware/database.ts, choosing the request's shard) is
 * reported apart: `directoryTrips` and `directorySessions`, a replica-eligible round trip of its own.
 */
export async function recordingRequest(
  method: string,
  path: string,
  options: { token: string; body?: unknown; headers?: Record<string, string>; env?: Partial<Env>; ctx?: ExecutionContext },
) {
  const trips: string[][] = [];
  const directoryTrips: string[][] = [];
  const all: (RecordedSession & { directory?: boolean })[] = [];
  const sqlOf = new WeakMap<D1PreparedStatement, string>();
  const track = (statement: D1PreparedStatement, sql: string, log: () => string[][]): D1PreparedStatement => {
    sqlOf.set(statement, sql);
    const bind = statement.bind.bind(statement);
    statement.bind = (...values: unknown[]) => track(bind(...values), sql, log);
    for (const call of ["all", "run", "first", "raw"] as Call[]) {
      const original = (statement[call] as (...args: unknown[]) => Promise<unknown>).bind(statement);
      Object.assign(statement, { [call]: (...args: unknown[]) => (log().push([sql]), original(...args)) });
    }
    return statement;
  };
  // The app runs every request in D1 sessions (src/platform/middleware/database.ts): the sessions' calls are the ones tracked.
  const recording = (shard: string) => {
    const binding = shardBinding(env, shard);
    return {
      prepare: (sql: string) => track(binding.prepare(sql), sql, () => trips),
      withSession: (constraintOrBookmark?: string) => {
        const entry: (typeof all)[number] = { shard, anchor: constraintOrBookmark };
        all.push(entry);
        const session = binding.withSession(constraintOrBookmark);
        const log = () => (entry.directory ? directoryTrips : trips);
        const classify = (sql: string) => (entry.directory ??= /organization_directory/.test(sql));
        return {
          prepare: (sql: string) => (classify(sql), track(session.prepare(sql), sql, log)),
          batch: (statements: D1PreparedStatement[]) => {
            log().push(statements.map((s) => sqlOf.get(s) ?? "?"));
            return session.batch(statements);
          },
          getBookmark: () => session.getBookmark(),
        };
      },
    };
  };
  const headers = new Headers(options.headers);
  headers.set("Authorization", `Bearer ${options.token}`);
  headers.set("Content-Type", "application/json");
  const init = { method, headers, body: options.body === undefined ? undefined : JSON.stringify(options.body) };
  const bindings = Object.fromEntries(shardNames().map((shard) => [shard, recording(shard)]));
  // Under the D1 limits guard as a request through the Worker's fetch is (src/worker.ts), outside the recording.
  const invocation = limitedEnv({ ...env, ...options.env, ...bindings } as Env);
  const response = await app.request(`http://shiftline.test${path}`, init, invocation, options.ctx);
  const tenant = all.filter((s) => !s.directory);
  return {
    status: response.status,
    body: await response.json<Record<string, unknown>>(),
    trips,
    directoryTrips,
    /** What each tenant session of the request was anchored at: a constraint or the client's bookmark. */
    sessions: tenant.map((s) => s.anchor),
    sessionsOn: tenant.map(({ shard, anchor }) => ({ shard, anchor })),
    directorySessions: all.filter((s) => s.directory).map(({ shard, anchor }) => ({ shard, anchor })),
    headers: response.headers,
  };
}
