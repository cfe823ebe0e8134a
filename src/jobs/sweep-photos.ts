import { organizations, photos } from "@db/schema";
import { eq, inArray, isNotNull } from "drizzle-orm";
import type { Database } from "@/data/client";
import { deleteFilesUnder, organizationPhotosPrefix } from "@/data/files";

/** Deleted organizations whose photos one run removes per shard (two statements each, besides the one read). */
export const PHOTO_SWEEP_ORGANIZATIONS = 10;

/**
 * The photos of deleted organizations: their R2 objects (photos/{organizationId}/, which the deletion itself removes
 * at once, this finishes what it could not) and then their rows, so an organization is swept until nothing of its
 * photos is left, and never again after. Answers the organizations swept.
 */
export async function sweepDeletedOrganizationPhotos(files: R2Bucket, db: Database, limit = PHOTO_SWEEP_ORGANIZATIONS): Promise<string[]> {
  const deleted = db.select({ id: organizations.id }).from(organizations).where(isNotNull(organizations.deletedAt));
  const rows = await db
    .selectDistinct({ organizationId: photos.organizationId })
    .from(photos)
    .where(inArray(photos.organizationId, deleted))
    .limit(limit);
  const swept: string[] = [];
  for (const { organizationId } of rows) {
    await deleteFilesUnder(files, organizationPhotosPrefix(organizationId));
    await db.delete(photos).where(eq(photos.organizationId, organizationId));
    swept.push(organizationId);
  }
  return swept;
}
