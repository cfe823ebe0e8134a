import { env } from "cloudflare:test";
import { DIRECTORY_SHARD, shardBinding, shardConfig } from "@/data/shards";
import { advanceMove, type MoveOptions, type MoveState, startMove } from "@/shards/move-organization";
import { dumpTable, type MovedOrganization } from "@/shards/pages";
import { MOVED_TABLES } from "@/shards/tables";
import { api } from "./api";
import { DEV_PARTNER } from "./tokens";

/** Every shard's binding name, DB first (wrangler.toml: DB and DB_SHARD_2). */
export const shardNames = () => shardConfig(env).shards;

/**
 * The database holding what organizations created through the API own (NEW_ORGANIZATION_SHARD: DB_SHARD_2 in
 * tests, so tenant rows are never on DB, which holds the directory and partner-level Idempotency-Key records).
 */
export const tenantDb = () => shardBinding(env, shardConfig(env).placement);

/** The directory's database. */
export const directoryDb = () => shardBinding(env, DIRECTORY_SHARD);

/** The shard the directory names for an organization. */
export async function shardOf(organizationId: string): Promise<string> {
  const row = await directoryDb()
    .prepare("SELECT shard FROM organization_directory WHERE organization_id = ?")
    .bind(organizationId)
    .first<{ shard: string }>();
  if (!row) throw new Error(`organization ${organizationId} is not in the directory`);
  return row.shard;
}

/**
 * An organization inserted straight into `shard` with its directory entry, as the API would place it there (tests of
 * organizations on DB while the API places new ones on DB_SHARD_2).
 */
export async function insertOrganization(shard: string, fields: { id?: string; partnerId: string; name?: string; externalId?: string }) {
  const id = fields.id ?? crypto.randomUUID();
  const at = Date.now();
  await shardBinding(env, shard)
    .prepare(
      "INSERT INTO organizations (id, partner_id, external_id, name, timezone, active, created_at, updated_at) VALUES (?, ?, ?, ?, 'UTC', 1, ?, ?)",
    )
    .bind(id, fields.partnerId, fields.externalId ?? null, fields.name ?? "Inserted", at, at)
    .run();
  await directoryDb()
    .prepare(
      "INSERT INTO organization_directory (organization_id, partner_id, external_id, shard, created_at, updated_at) VALUES (?, ?, ?, ?, ?, ?)",
    )
    .bind(id, fields.partnerId, fields.externalId ?? null, shard, at, at)
    .run();
  return id;
}
export const OPERATOR_SECRET = "test-operator-secret-not-for-production";

export const otherShard = (shard: string) => shardConfig(env).shards.find((s) => s !== shard)!;

export type Dump = Record<string, string[][]>;

/** Every row the organization has on `shard`, table by table, each column as SQLite's quote() of it. */
export async function dump(shard: string, organizationId: string): Promise<Dump> {
  const organization: MovedOrganization = { id: organizationId, partnerId: DEV_PARTNER };
  const entries = await Promise.all(
    MOVED_TABLES.map(async (t) => [t.name, await dumpTable(shardBinding(env, shard), t, organization)] as const),
  );
  return Object.fromEntries(entries);
}

export const rowCount = (d: Dump) => Object.values(d).reduce((n, rows) => n + rows.length, 0);

/** What a move adds to what it copies: on the target, the flip's `organization.moved` event and its audit entry. */
const MOVED = "'organization.moved'";

/** The dump without the moves' own records (events and audit entries of type organization.moved). */
export const withoutMoves = (d: Dump): Dump =>
  Object.fromEntries(Object.entries(d).map(([table, rows]) => [table, rows.filter((row) => !row.includes(MOVED))]));

/** The organization's `organization.moved` events on `shard` and their audit entries' actor types. */
export async function movesRecorded(shard: string, organizationId: string) {
  const { results } = await shardBinding(env, shard)
    .prepare(
      `SELECT e.id, a.actor_type AS actorType, a.actor_id AS actorId FROM events e LEFT JOIN audit_log a ON a.id = e.id
        WHERE e.organization_id = ? AND e.type = 'organization.moved' ORDER BY e.sequence`,
    )
    .bind(organizationId)
    .all<{ id: string; actorType: string | null; actorId: string | null }>();
  return results;
}

/** Calls advanceMove until the move stops, `pages` units per call; answers the last state and how many calls. */
export async function runMove(
  organizationId: string,
  options: MoveOptions & { environment?: Env } = {},
): Promise<{ state: MoveState; calls: number }> {
  let calls = 0;
  for (;;) {
    calls++;
    const state = await advanceMove(options.environment ?? env, organizationId, { settleMs: 0, ...options });
    if (state.finished) return { state, calls };
    if (calls > 10_000) throw new Error("the move does not finish");
  }
}

/** Starts a move to `target` and runs it to its end. */
export async function move(organizationId: string, target: string, options: MoveOptions = {}) {
  await startMove(env, organizationId, target);
  return runMove(organizationId, options);
}

export const operatorMove = (organizationId: string, body: unknown, secret = OPERATOR_SECRET) =>
  api("POST", `/operator/organizations/${organizationId}/move`, { body, headers: { Authorization: `Bearer ${secret}` } });

export const freezeOf = (shard: string, organizationId: string) =>
  shardBinding(env, shard)
    .prepare("SELECT moving_to FROM organization_freezes WHERE organization_id = ?")
    .bind(organizationId)
    .first<string>("moving_to");
