import { partnerApiVersions, partnerTokenUses } from "@db/schema";
import { eq, lte } from "drizzle-orm";
import type { Database } from "./client";

/**
 * Records that the partner's token `jti` is exchanged, in one conditional statement: true when this exchange is its
 * first within the token's lifetime (a fresh jti, or one whose earlier token has expired), false for a replay. The
 * primary key decides between two exchanges of one token at once: one records it, the other is the replay.
 */
export async function recordTokenUse(db: Database, partnerId: string, jti: string, expiresAt: Date, now = new Date()): Promise<boolean> {
  const recorded = await tokenUse(db, partnerId, jti, expiresAt, now);
  return recorded.length > 0;
}

const tokenUse = (db: Database, partnerId: string, jti: string, expiresAt: Date, now: Date) =>
  db
    .insert(partnerTokenUses)
    .values({ partnerId, jti, expiresAt })
    .onConflictDoUpdate({
      target: [partnerTokenUses.partnerId, partnerTokenUses.jti],
      set: { expiresAt },
      setWhere: lte(partnerTokenUses.expiresAt, now),
    })
    .returning({ jti: partnerTokenUses.jti });

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
  const [recorded, , [pinned]] = await db.batch([
    tokenUse(db, use.partnerId, use.jti, use.expiresAt, now),
    db.insert(partnerApiVersions).values({ partnerId: use.partnerId, version: current, pinnedAt: now }).onConflictDoNothing(),
    db.select({ version: partnerApiVersions.version }).from(partnerApiVersions).where(eq(partnerApiVersions.partnerId, use.partnerId)),
  ]);
  return { first: recorded.length > 0, apiVersion: pinned?.version ?? null };
}

/** The Cron's pruning: token uses whose token can no longer verify. */
export async function purgeExpiredTokenUses(db: Database, now = new Date()) {
  const result = await db.delete(partnerTokenUses).where(lte(partnerTokenUses.expiresAt, now)).run();
  return result.meta.changes ?? 0;
}
