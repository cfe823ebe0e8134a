import { and, eq, lte } from "drizzle-orm";
import { idempotencyKeys } from "../../drizzle/schema";
import type { Database } from "./db";

export const IDEMPOTENCY_TTL_MS = 24 * 60 * 60 * 1000;

export type StoredResponse = { status: number; body: string; contentType: string };

export type Claim =
  | { outcome: "claimed" }
  | { outcome: "reused" }
  | { outcome: "in_progress" }
  | { outcome: "replay"; response: StoredResponse };

export async function requestHash(method: string, path: string, body: string) {
  const digest = await crypto.subtle.digest("SHA-256", new TextEncoder().encode(`${method} ${path}\n${body}`));
  return Array.from(new Uint8Array(digest), (b) => b.toString(16).padStart(2, "0")).join("");
}

/**
 * Claims a key in one conditional statement: a fresh key, or one whose previous use expired, is ours;
 * otherwise the stored row says whether to replay, refuse a different body, or wait for the first request.
 */
export async function claimKey(db: Database, scope: string, key: string, hash: string, now = new Date()): Promise<Claim> {
  const expiresAt = new Date(now.getTime() + IDEMPOTENCY_TTL_MS);
  const claimed = await db
    .insert(idempotencyKeys)
    .values({ scope, key, requestHash: hash, createdAt: now, expiresAt })
    .onConflictDoUpdate({
      target: [idempotencyKeys.scope, idempotencyKeys.key],
      set: { requestHash: hash, status: null, body: null, contentType: null, createdAt: now, expiresAt },
      setWhere: lte(idempotencyKeys.expiresAt, now),
    })
    .returning({ scope: idempotencyKeys.scope });
  if (claimed.length > 0) return { outcome: "claimed" };
  const [existing] = await db
    .select()
    .from(idempotencyKeys)
    .where(and(eq(idempotencyKeys.scope, scope), eq(idempotencyKeys.key, key)));
  if (!existing) return claimKey(db, scope, key, hash, now);
  if (existing.requestHash !== hash) return { outcome: "reused" };
  if (existing.status === null) return { outcome: "in_progress" };
  return {
    outcome: "replay",
    response: { status: existing.status, body: existing.body ?? "", contentType: existing.contentType ?? "application/json" },
  };
}

export const storeResponse = (db: Database, scope: string, key: string, response: StoredResponse) =>
  db
    .update(idempotencyKeys)
    .set({ status: response.status, body: response.body, contentType: response.contentType })
    .where(and(eq(idempotencyKeys.scope, scope), eq(idempotencyKeys.key, key)));

/** A failed first attempt (5xx) must not be replayed: releasing the key lets the retry run. */
export const releaseKey = (db: Database, scope: string, key: string) =>
  db.delete(idempotencyKeys).where(and(eq(idempotencyKeys.scope, scope), eq(idempotencyKeys.key, key)));

export async function purgeExpiredKeys(db: Database, now = new Date()) {
  const result = await db.delete(idempotencyKeys).where(lte(idempotencyKeys.expiresAt, now)).run();
  return result.meta.changes ?? 0;
}

