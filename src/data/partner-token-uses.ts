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
  const expires = expiresAt.getTime();
  const params = [partnerId, jti, expires, expires, now.getTime()];
  return batchItem(db, { sql: RECORD_TOKEN_USE_SQL, params }, (result) => result.results.length > 0);
}

/** The Cron's pruning: token uses whose token can no longer verify. */
export async function purgeExpiredTokenUses(db: Database, now = new Date()) {
  const result = await db.delete(partnerTokenUses).where(lte(partnerTokenUses.expiresAt, now)).run();
  return result.meta.changes ?? 0;
}
