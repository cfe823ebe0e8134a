import { env } from "cloudflare:test";
import { app } from "@/app";
import { limitedEnv } from "@/data/limited-d1";
import { shardBinding } from "@/data/shards";
import { shardNames, tenantDb } from "./shards";

type Call = "all" | "run" | "first" | "raw";

export interface Interference {
  /** The first round trip with a statement whose SQL matches this runs only after `meanwhile`. */
  before: RegExp;
  /** What a concurrent request does between the handler's reads and that write (straight on D1). */
  meanwhile: () => Promise<unknown>;
}

/**
 * Sends a request to the app with a D1 binding that lets another "request" land at a chosen point: right before
 * the first round trip (a batch, or one statement run on its own) that has a statement matching `before`. The
 * real statements reach D1, so the request otherwise behaves as usual.
 */
export async function requestWithInterference(
  method: string,
  path: string,
  options: { token: string; body?: unknown; headers?: Record<string, string> },
  interference: Interference,
) {
  let pending = true;
  const sqlOf = new WeakMap<D1PreparedStatement, string>();
  const beforeTrip = async (sqls: string[]) => {
    if (pending && sqls.some((sql) => interference.before.test(sql))) {
      pending = false;
      await interference.meanwhile();
    }
  };
  const track = (statement: D1PreparedStatement, sql: string): D1PreparedStatement => {
    sqlOf.set(statement, sql);
    const bind = statement.bind.bind(statement);
    statement.bind = (...values: unknown[]) => track(bind(...values), sql);
    for (const call of ["all", "run", "first", "raw"] as Call[]) {
      const original = (statement[call] as (...args: unknown[]) => Promise<unknown>).bind(statement);
      Object.assign(statement, { [call]: async (...args: unknown[]) => (await beforeTrip([sql]), original(...args)) });
    }
    return statement;
  };
  // The app runs every request in D1 sessions (src/platform/middleware/database.ts): the sessions' calls are the ones tracked.
  const interfering = (binding: D1Database) => ({
    prepare: (sql: string) => track(binding.prepare(sql), sql),
    withSession: (constraintOrBookmark?: string) => {
      const session = binding.withSession(constraintOrBookmark);
      return {
        prepare: (sql: string) => track(session.prepare(sql), sql),
        batch: async (statements: D1PreparedStatement[]) => {
          await beforeTrip(statements.map((s) => sqlOf.get(s) ?? ""));
          return session.batch(statements);
        },
        getBookmark: () => session.getBookmark(),
      };
    },
  });
  const bindings = Object.fromEntries(shardNames().map((shard) => [shard, interfering(shardBinding(env, shard))]));
  const headers = new Headers({ ...options.headers, Authorization: `Bearer ${options.token}`, "Content-Type": "application/json" });
  const init = { method, headers, body: options.body === undefined ? undefined : JSON.stringify(options.body) };
  // Under the D1 limits guard as a request through the Worker's fetch is (src/worker.ts); `meanwhile` is not.
  const response = await app.request(`http://shiftline.test${path}`, init, limitedEnv({ ...env, ...bindings } as Env));
  if (pending) throw new Error(`no round trip matched ${interference.before}`);
  return { status: response.status, body: await response.json<Record<string, any>>() };
}

/** Soft-deletes an access role straight in its shard, as a concurrent DELETE …/accessroles/{id} would. */
export const deleteAccessRoleInD1 = (id: string) =>
  tenantDb().prepare("UPDATE access_roles SET deleted_at = ?1, updated_at = ?1, active = 0 WHERE id = ?2").bind(Date.now(), id).run();

/** Gives a staff member another access role straight in its shard, as a concurrent PATCH by an Admin would. */
export const setAccessRoleInD1 = (staffMemberId: string, accessRoleId: string) =>
  tenantDb()
    .prepare("UPDATE staff_members SET access_role_id = ?1, updated_at = ?2 WHERE id = ?3")
    .bind(accessRoleId, Date.now(), staffMemberId)
    .run();

/** The SQL drizzle sends for a write to the staff_members table. */
export const STAFF_WRITE = /^(insert into|update) "staff_members"/i;
