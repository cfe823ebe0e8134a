import { env } from "cloudflare:test";
import { DIRECTORY_SHARD, shardBinding, shardConfig } from "../../src/lib/shards";

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
    .prepare("INSERT INTO organizations (id, partner_id, external_id, name, timezone, active, created_at, updated_at) VALUES (?, ?, ?, ?, 'UTC', 1, ?, ?)")
    .bind(id, fields.partnerId, fields.externalId ?? null, fields.name ?? "Inserted", at, at)
    .run();
  await directoryDb()
    .prepare("INSERT INTO organization_directory (organization_id, partner_id, external_id, shard, created_at, updated_at) VALUES (?, ?, ?, ?, ?, ?)")
    .bind(id, fields.partnerId, fields.externalId ?? null, shard, at, at)
    .run();
  return id;
}
