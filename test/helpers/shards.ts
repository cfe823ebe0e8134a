import { env } from "cloudflare:test";
import { shardBinding, shardConfig } from "../../src/lib/shards";
import { advanceMove, type MoveOptions, type MoveState, startMove } from "../../src/shards/move-organization";
import { dumpTable, type MovedOrganization } from "../../src/shards/pages";
import { MOVED_TABLES } from "../../src/shards/tables";
import { api } from "./api";
import { DEV_PARTNER } from "./tokens";

export const OPERATOR_SECRET = "test-operator-secret-not-for-production";

/**
 * The shard holding an organization's rows, with its directory entry made sure of. Before request routing,
 * organizations created through the API live on DB without an entry; after it, on NEW_ORGANIZATION_SHARD with one:
 * this works either way.
 */
export async function homeShard(organizationId: string): Promise<string> {
  for (const shard of shardConfig(env).shards) {
    const row = await shardBinding(env, shard)
      .prepare("SELECT id, partner_id, external_id, created_at, updated_at FROM organizations WHERE id = ?")
      .bind(organizationId)
      .first<{ id: string; partner_id: string; external_id: string | null; created_at: number; updated_at: number }>();
    if (!row) continue;
    await env.DB.prepare(
      `INSERT OR IGNORE INTO organization_directory (organization_id, partner_id, external_id, shard, created_at, updated_at)
        VALUES (?, ?, ?, ?, ?, ?)`,
    )
      .bind(row.id, row.partner_id, row.external_id, shard, row.created_at, row.updated_at)
      .run();
    return shard;
  }
  throw new Error(`organization ${organizationId} is on no shard`);
}

export const otherShard = (shard: string) => shardConfig(env).shards.find((s) => s !== shard)!;

export const directoryShard = (organizationId: string) =>
  env.DB.prepare("SELECT shard FROM organization_directory WHERE organization_id = ?").bind(organizationId).first<string>("shard");

export type Dump = Record<string, string[][]>;

/** Every row the organization has on `shard`, table by table, each column as SQLite's quote() of it. */
export async function dump(shard: string, organizationId: string): Promise<Dump> {
  const organization: MovedOrganization = { id: organizationId, partnerId: DEV_PARTNER };
  const entries = await Promise.all(MOVED_TABLES.map(async (t) => [t.name, await dumpTable(shardBinding(env, shard), t, organization)] as const));
  return Object.fromEntries(entries);
}

export const rowCount = (d: Dump) => Object.values(d).reduce((n, rows) => n + rows.length, 0);

/** Calls advanceMove until the move stops, `pages` units per call; answers the last state and how many calls. */
export async function runMove(organizationId: string, options: MoveOptions & { environment?: Env } = {}): Promise<{ state: MoveState; calls: number }> {
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
  shardBinding(env, shard).prepare("SELECT moving_to FROM organization_freezes WHERE organization_id = ?").bind(organizationId).first<string>("moving_to");
