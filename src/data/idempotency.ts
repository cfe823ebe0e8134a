import { idempotencyKeys } from "@db/schema";
import { and, eq, isNull, lte, not, or, sql } from "drizzle-orm";
import type { Database } from "./client";
import { type Placeholders, prepared } from "./prepared";

export const IDEMPOTENCY_TTL_MS = 24 * 60 * 60 * 1000;
/** A claim with no stored answer after this long belongs to a request that died; the key may be claimed again. */
export const ABANDONED_CLAIM_MS = 60 * 1000;

export type StoredResponse = { status: number; body: string; contentType: string };

/** Who sent which request under which key. */
export interface IdempotentRequest {
  scope: string;
  key: string;
  hash: string;
}

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
 * Claims a key in one conditional statement: a fresh key, one whose previous use expired, or one claimed by a
 * request that died without an answer, is ours; otherwise the stored row says whether to replay, refuse a
 * different body, or wait for the first request.
 */
export async function claimKey(db: Database, request: IdempotentRequest, now = new Date()): Promise<Claim> {
  const { scope, key, hash } = request;
  const expiresAt = new Date(now.getTime() + IDEMPOTENCY_TTL_MS);
  const claimed = await db
    .insert(idempotencyKeys)
    .values({ scope, key, requestHash: hash, createdAt: now, expiresAt })
    .onConflictDoUpdate({
      target: [idempotencyKeys.scope, idempotencyKeys.key],
      set: { requestHash: hash, status: null, body: null, contentType: null, createdAt: now, expiresAt },
      setWhere: or(
        lte(idempotencyKeys.expiresAt, now),
        and(isNull(idempotencyKeys.status), lte(idempotencyKeys.createdAt, new Date(now.getTime() - ABANDONED_CLAIM_MS))),
      ),
    })
    .returning({ scope: idempotencyKeys.scope });
  if (claimed.length > 0) return { outcome: "claimed" };
  const [existing] = await db
    .select()
    .from(idempotencyKeys)
    .where(and(eq(idempotencyKeys.scope, scope), eq(idempotencyKeys.key, key)));
  // Absent or expired again: another request released or outlived it in between; try once more.
  return outcomeOf(existing, hash, now) ?? claimKey(db, request, now);
}

type KeyRow = typeof idempotencyKeys.$inferSelect;

/** What a stored key means for a request with `hash`; undefined when the key is free (absent or expired). */
export function outcomeOf(row: KeyRow | undefined, hash: string, now = new Date()): Exclude<Claim, { outcome: "claimed" }> | undefined {
  if (!row || row.expiresAt <= now) return undefined;
  if (row.requestHash !== hash) return { outcome: "reused" };
  if (row.status === null) return { outcome: "in_progress" };
  return {
    outcome: "replay",
    response: { status: row.status, body: row.body ?? "", contentType: row.contentType ?? "application/json" },
  };
}

const storedKey = prepared((db, p: Placeholders<{ scope: string; key: string }>) =>
  db
    .select()
    .from(idempotencyKeys)
    .where(and(eq(idempotencyKeys.scope, p.scope), eq(idempotencyKeys.key, p.key))),
);

/** For a read batch: the stored key, if any. */
export const lookupStatement = (db: Database, request: IdempotentRequest) => storedKey(db, { scope: request.scope, key: request.key });

/**
 * For a write batch, FIRST in it: drops an expired use of the key, then records this response. A concurrent
 * request with the same key makes the insert fail on the primary key, and with it the whole batch.
 */
export const recordStatements = (db: Database, request: IdempotentRequest, response: StoredResponse, now = new Date()) =>
  [
    db
      .delete(idempotencyKeys)
      .where(and(eq(idempotencyKeys.scope, request.scope), eq(idempotencyKeys.key, request.key), lte(idempotencyKeys.expiresAt, now))),
    db.insert(idempotencyKeys).values({
      scope: request.scope,
      key: request.key,
      requestHash: request.hash,
      status: response.status,
      body: response.body,
      contentType: response.contentType,
      createdAt: now,
      expiresAt: new Date(now.getTime() + IDEMPOTENCY_TTL_MS),
    }),
  ] as const;

export const storeResponse = (db: Database, scope: string, key: string, response: StoredResponse) =>
  db
    .update(idempotencyKeys)
    .set({ status: response.status, body: response.body, contentType: response.contentType })
    .where(and(eq(idempotencyKeys.scope, scope), eq(idempotencyKeys.key, key)));

/** A refused or failed first attempt changed nothing and is not replayed: releasing the key lets the retry run. */
export const releaseKey = (db: Database, scope: string, key: string) =>
  db.delete(idempotencyKeys).where(and(eq(idempotencyKeys.scope, scope), eq(idempotencyKeys.key, key)));

/**
 * Expired keys go, except those of an organization frozen on this database (a move is copying and comparing them:
 * src/shards). A scope is "<partner>:<organization>:<staff member or empty>".
 */
const ofFrozenOrganization = sql`EXISTS (SELECT 1 FROM organization_freezes f
  WHERE substr(${idempotencyKeys.scope}, instr(${idempotencyKeys.scope}, ':'), length(f.organization_id) + 2) = ':' || f.organization_id || ':')`;

export async function purgeExpiredKeys(db: Database, now = new Date()) {
  const result = await db
    .delete(idempotencyKeys)
    .where(and(lte(idempotencyKeys.expiresAt, now), not(ofFrozenOrganization)))
    .run();
  return result.meta.changes ?? 0;
}
