import { partnerTokenUses } from "@db/schema";
import { lte } from "drizzle-orm";
import type { Database } from "./client";
import { batchItem } from "./raw-statement";

/**
 * The conditional insert of a token use, as drizzle builds it from `partnerTokenUses` (values: partner, jti, expiry
 * in ms, the same expiry, now in ms), written out once: a cold isolate's first token exchange then runs no drizzle
 * query builder (issue 45 item 7, docs/PERFORMANCE.md). test/performance/token-use-prepared.test.ts checks it is
 * what drizzle builds.
 */
export const RECORD_TOKEN_USE_SQL =
  'insert into "partner_token_uses" ("partner_id", "jti", "expires_at") values (?, ?, ?) on conflict ' +
  '("partner_token_uses"."partner_id", "partner_token_uses"."jti") do update set "expires_at" = ? ' +
  'where "partner_token_uses"."expires_at" <= ? returning "jti"';

/**
 * Records that the partner's token `jti` is exchanged, in one conditional statement: true when this exchange is its
 * first within the token's lifetime (a fresh jti, or one whose earlier token has expired), false for a replay. The
 * primary key decides between two exchanges of one token at once: one records it, the other is the replay.
 */
export async function recordTokenUse(db: Database, partnerId: string, jti: string, expiresAt: Date, now = new Date()): Promise<boolean> {
  return tokenUse(db, partnerId, jti, expiresAt, now);
}

const tokenUse = (db: Database, partnerId: string, jti: string, expiresAt: Date, now: Date) => {
  const expires = expiresAt.getTime();
  const params = [partnerId, jti, expires, expires, now.getTime()];
  return batchItem(db, { sql: RECORD_TOKEN_USE_SQL, params }, (result) => result.results.length > 0);
};

/** The partner's pin (kept if one exists) and its read, written out for the same reason as RECORD_TOKEN_USE_SQL. */
const PIN_API_VERSION_SQL =
  'insert into "partner_api_versions" ("partner_id", "version", "pinned_at") values (?, ?, ?) on conflict do nothing';
const PINNED_API_VERSION_SQL = 'select "version" from "partner_api_versions" where "partner_id" = ?';

/**
 * `recordTokenUse`, and in the same round trip the partner's pinned API version: `current` if this is its first
 * exchange (pinned for good), else the one pinned then. Null when no version is pinned (never, once written).
 */
export async function recordTokenUseAndPin(
  db: Database,
  use: { partnerId: string; jti: string; expiresAt: Date },
  current: string,
  now = new Date(),
): Promise<{ first: boolean; apiVersion: string | null }> {
  const [first, , pinned] = await db.batch([
    tokenUse(db, use.partnerId, use.jti, use.expiresAt, now),
    batchItem(db, { sql: PIN_API_VERSION_SQL, params: [use.partnerId, current, now.getTime()] }, () => null),
    batchItem(
      db,
      { sql: PINNED_API_VERSION_SQL, params: [use.partnerId] },
      (result) => (result.results[0] as { version: string } | undefined)?.version ?? null,
    ),
  ]);
  return { first, apiVersion: pinned };
}

/** The Cron's pruning: token uses whose token can no longer verify. */
export async function purgeExpiredTokenUses(db: Database, now = new Date()) {
  const result = await db.delete(partnerTokenUses).where(lte(partnerTokenUses.expiresAt, now)).run();
  return result.meta.changes ?? 0;
}
