import { partnerTokenUses } from "@db/schema";
import { lte } from "drizzle-orm";
import type { Database } from "./client";

/**
 * Records that the partner's token `jti` is exchanged, in one conditional statement: true when this exchange is its
 * first within the token's lifetime (a fresh jti, or one whose earlier token has expired), false for a replay. The
 * primary key decides between two exchanges of one token at once: one records it, the other is the replay.
 */
export async function recordTokenUse(db: Database, partnerId: string, jti: string, expiresAt: Date, now = new Date()): Promise<boolean> {
  const recorded = await db
    .insert(partnerTokenUses)
    .values({ partnerId, jti, expiresAt })
    .onConflictDoUpdate({
      target: [partnerTokenUses.partnerId, partnerTokenUses.jti],
      set: { expiresAt },
      setWhere: lte(partnerTokenUses.expiresAt, now),
    })
    .returning({ jti: partnerTokenUses.jti });
  return recorded.length > 0;
}

/** The Cron's pruning: token uses whose token can no longer verify. */
export async function purgeExpiredTokenUses(db: Database, now = new Date()) {
  const result = await db.delete(partnerTokenUses).where(lte(partnerTokenUses.expiresAt, now)).run();
  return result.meta.changes ?? 0;
}
