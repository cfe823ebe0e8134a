import { organizations, webhooks } from "@db/schema";
import { and, eq, isNull, type SQL, sql } from "drizzle-orm";
import type { Principal } from "@/domain/permissions";
import type { Database } from "./client";

/**
 * The one clock of an organization. A live organization's is the real clock; a sandbox's (POST /organizations/sandbox)
 * runs `clock_offset_ms` ahead of it, moved only forward by its test clock (POST …/test-clock/advance). Everything
 * time-driven for an organization reads its time here: punches, the attendance and accrual passes, webhook retries.
 */
export const shiftedNow = (offsetMs: number, realNow = Date.now()) => new Date(realNow + offsetMs);

/** The organization's clock offset (0 for a live organization, or one that does not exist). */
export async function clockOffsetOf(db: Database, organizationId: string): Promise<number> {
  const [row] = await db.select({ offset: organizations.clockOffsetMs }).from(organizations).where(eq(organizations.id, organizationId));
  return row?.offset ?? 0;
}

/**
 * Offsets already read, per request database session (data/sessions: one per request and shard; never a principal,
 * which an isolate's token cache may share between requests) and organization: a request reads each at most once.
 */
const knownOffsets = new WeakMap<Database, Map<string, number>>();

/** Notes an organization's offset the request already read (a device token's row names it): its clock then reads nothing. */
export function noteClockOffset(db: Database, organizationId: string, offsetMs: number) {
  const known = knownOffsets.get(db) ?? new Map<string, number>();
  known.set(organizationId, offsetMs);
  knownOffsets.set(db, known);
}

/** Who writes and for which organization: a request's writer (data/write Writer), or its scope. */
export interface ClockReader {
  db: Database;
  principal?: Principal;
  organizationId?: string | null;
}

/**
 * The time of the organization a request acts on, the one helper every write's stamps (createdAt, updatedAt,
 * approvedAt…) read: the real time for a live organization, a sandbox's test-clock time for a sandbox. An organization
 * token says whether its organization is a sandbox (a sandbox never stops being one), so a live organization's
 * request reads nothing; a sandbox's, or a partner-level token acting on an organization, reads the offset once per
 * request (kept with the request's database session).
 */
export async function organizationNow({ db, principal, organizationId }: ClockReader): Promise<Date> {
  const id = organizationId ?? principal?.organizationId ?? null;
  if (id === null) return new Date();
  if (principal && principal.organizationId !== null && !principal.sandbox) return new Date();
  const known = knownOffsets.get(db)?.get(id);
  if (known !== undefined) return shiftedNow(known);
  const offset = await clockOffsetOf(db, id);
  noteClockOffset(db, id, offset);
  return shiftedNow(offset);
}

/** The organization's sandbox state and clock: null when it is not a live record of this database. */
export async function testClockOf(db: Database, organizationId: string) {
  const [row] = await db
    .select({ sandbox: organizations.sandbox, offset: organizations.clockOffsetMs })
    .from(organizations)
    .where(and(eq(organizations.id, organizationId), isNull(organizations.deletedAt)));
  return row ?? null;
}

/**
 * Which organizations a background pass works on: every live one at the real time ("live"; sandboxes are left out),
 * every live one but those named (`liveExcept`: the large ones whose pass runs as a durable job), or one
 * organization (a sandbox at its own time, or a large one's job).
 */
export type PassScope = "live" | { liveExcept: string[] } | { organizationId: string };

const live = (organizationId: SQL) => sql`${organizationId} NOT IN (SELECT o.id FROM organizations o WHERE o.sandbox = 1)`;

/** The pass's condition on an organization id column. */
export const inPassScope = (organizationId: SQL, scope: PassScope): SQL => {
  if (scope === "live") return live(organizationId);
  if ("liveExcept" in scope) {
    if (scope.liveExcept.length === 0) return live(organizationId);
    return sql`${live(organizationId)} AND ${organizationId} NOT IN (SELECT value FROM json_each(${JSON.stringify(scope.liveExcept)}))`;
  }
  return sql`${organizationId} = ${scope.organizationId}`;
};

/** Up to `limit` live sandboxes of this database with their clock offsets, a random few each time (the Cron's share). */
export const sandboxesToRun = (db: Database, limit: number) =>
  db
    .select({ id: organizations.id, offset: organizations.clockOffsetMs })
    .from(organizations)
    // Written as the partial index organizations_sandboxes is, so that the planner uses it.
    .where(and(sql`${organizations.sandbox} = 1`, isNull(organizations.deletedAt)))
    .orderBy(sql`random()`)
    .limit(limit);

/** The clock offset of a webhook endpoint's organization (0 for a live one). */
export async function clockOffsetOfWebhook(db: Database, webhookId: string): Promise<number> {
  const [row] = await db
    .select({ offset: organizations.clockOffsetMs })
    .from(organizations)
    .innerJoin(webhooks, eq(webhooks.organizationId, organizations.id))
    .where(eq(webhooks.id, webhookId));
  return row?.offset ?? 0;
}
