import { deleteFilesUnder } from "@/data/files";
import { filesOf, regionOf } from "@/data/shards";

/**
 * An organization's objects in R2, for a move between data regions: every key it owns starts with one of these
 * prefixes and its id (payroll snapshots, exports, kiosk photos). A move within a region moves nothing in R2 (the
 * bucket is the region's); one between regions copies them to the target region's bucket before the verify, and
 * deletes them from the source's with the source's rows (or the target's copies, on an abort).
 */
export const FILE_PREFIXES = ["payroll", "exports", "photos"] as const;

/** Objects a unit of work copies: two R2 operations each, so a call of 20 units stays within its subrequests. */
export const FILES_PAGE = 10;

const prefixOf = (index: number, organizationId: string) => `${FILE_PREFIXES[index]}/${organizationId}/`;

/** Whether the move crosses data regions (its objects change bucket). */
export const crossesRegions = (env: Env, source: string, target: string) => regionOf(env, source) !== regionOf(env, target);

/**
 * Copies one page (FILES_PAGE objects) under the prefix to the target's bucket, bytes, content type and SHA-256 as
 * they are: a page copied again writes the same objects. Answers how many it copied and the listing's next cursor.
 */
export async function copyFilesPage(
  env: Env,
  move: { organizationId: string; source: string; target: string },
  prefixIndex: number,
  cursor: string | undefined,
): Promise<{ copied: number; next: string | undefined }> {
  const from = filesOf(env, move.source);
  const to = filesOf(env, move.target);
  const page = await from.list({ prefix: prefixOf(prefixIndex, move.organizationId), cursor, limit: FILES_PAGE });
  for (const listed of page.objects) {
    const object = await from.get(listed.key);
    if (!object) continue; // deleted meanwhile (a sweep of an orphan): nothing to carry
    const bytes = new Uint8Array(await object.arrayBuffer());
    await to.put(listed.key, bytes, {
      httpMetadata: object.httpMetadata,
      customMetadata: object.customMetadata,
      sha256: object.checksums.sha256,
    });
  }
  return { copied: page.objects.length, next: page.truncated ? page.cursor : undefined };
}

/** Deletes the organization's objects from `shard`'s region's bucket (after a move between regions, or its abort). */
export async function deleteFilesOf(env: Env, shard: string, organizationId: string): Promise<void> {
  const bucket = filesOf(env, shard);
  for (let i = 0; i < FILE_PREFIXES.length; i++) await deleteFilesUnder(bucket, prefixOf(i, organizationId));
}
