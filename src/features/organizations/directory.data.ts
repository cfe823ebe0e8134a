import { organizationDirectory, organizations } from "@db/schema";
import { and, asc, eq, gt, lte, type SQL, sql } from "drizzle-orm";
import type { Database, Statement } from "@/data/client";
import { DIRECTORY_SHARD, shardBinding } from "@/data/shards";
import type { AppContext } from "@/platform/http/env";
import { decodeIdCursor } from "@/platform/http/pagination";
import { databaseOf, routeTo } from "@/platform/middleware/database";
import type { ListOptions } from "@/platform/schemas/list-query";
import { notFound } from "@/problems/problem";

/**
 * Organizations across shards. The directory (on DB) names each organization's shard and carries its partner and
 * externalId; the organization's own row, and everything it owns, lives on that shard.
 *
 * Writes that change the directory and a shard other than DB are two batches, never one transaction: the
 * directory's entry is written first (its unique index keeps an externalId unique per partner across shards) and
 * undone when the shard's write did not happen (a create asks the shard's primary when the failure is not a
 * refusal: a lost answer may have committed). After a rename's shard write the entry follows the row version written,
 * unless it followed a later one, so racing renames end on the row's last value. Between the two writes, for a moment,
 * the directory holds an entry (or an externalId) whose shard row does not exist yet or carries the old value: a
 * lookup by that externalId then answers 404, and the same externalId is refused to another organization (409), which
 * is what it will be once the write lands. A Worker that dies between the two leaves a directory entry without an
 * organization row, which reads as a missing organization; on DB both are one batch.
 */

export const directoryOf = (c: AppContext): Database => databaseOf(c, DIRECTORY_SHARD);

export interface Located {
  shard: string;
  db: Database;
  organizationId: string;
}

export type Lookup = { id: string } | { externalId: string };

/**
 * The database holding the organization `lookup` names, the request routed there. An organization's token already
 * runs on its own shard; a partner's reads the directory (its own organizations only), 404 when it names none.
 */
export async function locate(c: AppContext, lookup: Lookup): Promise<Located> {
  const { principal } = c.var;
  if (principal.organizationId !== null) return { shard: c.var.shard, db: c.var.db, organizationId: principal.organizationId };
  const [entry] = await directoryOf(c)
    .select({ shard: organizationDirectory.shard, organizationId: organizationDirectory.organizationId })
    .from(organizationDirectory)
    .where(
      and(
        eq(organizationDirectory.partnerId, principal.partnerId),
        "id" in lookup ? eq(organizationDirectory.organizationId, lookup.id) : eq(organizationDirectory.externalId, lookup.externalId),
      ),
    );
  if (!entry) throw notFound("Organization");
  return { shard: entry.shard, db: routeTo(c, entry.shard), organizationId: entry.organizationId };
}

type OrganizationRow = typeof organizations.$inferSelect;

/**
 * One keyset page (limit + 1 rows, to tell whether more remain) of a partner's organizations in id order: the
 * directory's next entries, then each shard they name for its organizations in that id range, in parallel. A row
 * counts only on the shard the directory names (an organization being moved exists on two for a moment). Filters
 * (updatedSince, deleted) apply to the organizations' rows, so a page may need further directory entries.
 */
export async function partnerPage(c: AppContext, options: ListOptions, filters: SQL | undefined) {
  const { partnerId } = c.var.principal;
  const directory = directoryOf(c);
  const wanted = options.limit + 1;
  const rows: OrganizationRow[] = [];
  let after = options.cursor ? decodeIdCursor(options.cursor) : undefined;
  while (rows.length < wanted) {
    const entries = await directory
      .select({ id: organizationDirectory.organizationId, shard: organizationDirectory.shard })
      .from(organizationDirectory)
      .where(
        and(
          eq(organizationDirectory.partnerId, partnerId),
          after === undefined ? undefined : gt(organizationDirectory.organizationId, after),
        ),
      )
      .orderBy(asc(organizationDirectory.organizationId))
      .limit(wanted);
    if (entries.length === 0) break;
    const last = entries[entries.length - 1]!.id;
    const shardOf = new Map(entries.map((e) => [e.id, e.shard]));
    const perShard = await Promise.all(
      [...new Set(entries.map((e) => e.shard))].map(async (shard) => {
        const db = databaseOf(c, shard);
        const found = await db
          .select()
          .from(organizations)
          .where(
            and(
              eq(organizations.partnerId, partnerId),
              after === undefined ? undefined : gt(organizations.id, after),
              lte(organizations.id, last),
              filters,
            ),
          );
        return found.filter((row) => shardOf.get(row.id) === shard);
      }),
    );
    rows.push(...perShard.flat().sort((a, b) => (a.id < b.id ? -1 : a.id > b.id ? 1 : 0)));
    if (entries.length < wanted) break;
    after = last;
  }
  return rows.slice(0, wanted);
}

/** The directory entry of a new organization placed on `shard`. */
export const directoryEntry = (
  c: AppContext,
  row: { id: string; partnerId: string; externalId?: string | null; createdAt: Date },
  shard: string,
) =>
  directoryOf(c)
    .insert(organizationDirectory)
    .values({
      organizationId: row.id,
      partnerId: row.partnerId,
      externalId: row.externalId ?? null,
      shard,
      createdAt: row.createdAt,
      updatedAt: row.createdAt,
    });

/**
 * Brings the directory's externalId of `organizationId` in step with its row on DB (in the batch that changes it).
 * The entry's updatedAt is the version of the row it last followed.
 */
export const directoryFollowsRow = (c: AppContext, organizationId: string): Statement =>
  directoryOf(c)
    .update(organizationDirectory)
    .set({
      externalId: sql`(SELECT ${organizations.externalId} FROM ${organizations} WHERE ${organizations.id} = ${organizationId})`,
      updatedAt: sql`(SELECT ${organizations.updatedAt} FROM ${organizations} WHERE ${organizations.id} = ${organizationId})`,
    })
    .where(eq(organizationDirectory.organizationId, organizationId));

/**
 * Claims `externalId` for `organizationId` in the directory (the first of the two writes when the organization is not
 * on DB: a value another organization holds is refused by the directory's unique index). Leaves the entry's version.
 */
export const setDirectoryExternalId = (c: AppContext, organizationId: string, externalId: string | null) =>
  directoryOf(c).update(organizationDirectory).set({ externalId }).where(eq(organizationDirectory.organizationId, organizationId));

/**
 * The second half, after the shard's write: the entry takes the externalId of the row version `row`, unless it already
 * followed a later version. Two renames racing each other end with the directory on the row's last version, whichever
 * request finishes last.
 */
export async function followRowVersion(c: AppContext, organizationId: string, row: { externalId: string | null; updatedAt: Date }) {
  try {
    await directoryOf(c)
      .update(organizationDirectory)
      .set({ externalId: row.externalId, updatedAt: row.updatedAt })
      .where(and(eq(organizationDirectory.organizationId, organizationId), lte(organizationDirectory.updatedAt, row.updatedAt)));
  } catch (error) {
    console.error(JSON.stringify({ requestId: c.get("requestId"), directoryFollowFailed: organizationId, error: String(error) }));
  }
}

/** Undoes the directory's half of a write whose shard half failed: the entry follows the shard's row again. */
export async function restoreDirectoryExternalId(c: AppContext, located: Located, organizationId: string) {
  try {
    const [row] = await located.db
      .select({ externalId: organizations.externalId, updatedAt: organizations.updatedAt })
      .from(organizations)
      .where(eq(organizations.id, organizationId));
    if (row) await followRowVersion(c, organizationId, row);
  } catch (error) {
    console.error(JSON.stringify({ requestId: c.get("requestId"), directoryRestoreFailed: organizationId, error: String(error) }));
  }
}

/** Removes the directory entry of an organization whose shard write failed. */
export async function removeDirectoryEntry(c: AppContext, organizationId: string) {
  try {
    await directoryOf(c).delete(organizationDirectory).where(eq(organizationDirectory.organizationId, organizationId));
  } catch (error) {
    console.error(JSON.stringify({ requestId: c.get("requestId"), directoryCleanupFailed: organizationId, error: String(error) }));
  }
}

/** Whether `organizationId`'s row exists on `shard`'s primary (the binding itself, no replica). */
export async function writtenOn(env: Env, shard: string, organizationId: string): Promise<boolean> {
  return (
    (await shardBinding(env, shard).prepare("SELECT 1 AS found FROM organizations WHERE id = ?").bind(organizationId).first()) !== null
  );
}
