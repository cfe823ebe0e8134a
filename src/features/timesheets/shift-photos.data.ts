import { photos, shifts } from "@db/schema";
import { and, asc, eq } from "drizzle-orm";
import { signedPhotoPath } from "@/auth/photo-url";
import type { Database } from "@/data/client";
import { inOrganization } from "@/data/tenancy";
import { iso } from "@/platform/schemas/time";
import { notFound } from "@/problems/problem";
import type { TimesheetScope } from "./timesheet-scope.guards";
import type { ShiftPhoto } from "./timesheets.schemas";

type PhotoRow = typeof photos.$inferSelect;

/** The shift (in the caller's organization) and its photos, oldest first, in one batch. */
export async function shiftPhotos(db: Database, scope: TimesheetScope, shiftId: string): Promise<PhotoRow[]> {
  const [found, rows] = await db.batch([
    db
      .select({ id: shifts.id })
      .from(shifts)
      .where(and(inOrganization(shifts, scope.organizationId), eq(shifts.id, shiftId))),
    db
      .select()
      .from(photos)
      .where(and(eq(photos.organizationId, scope.organizationId), eq(photos.shiftId, shiftId)))
      .orderBy(asc(photos.createdAt), asc(photos.id)),
  ]);
  if (!found[0]) throw notFound("Shift");
  return rows;
}

/** A photo as listed: its record and a link that serves it for 5 minutes (auth/photo-url). */
export async function serializeShiftPhoto(row: PhotoRow, link: { secret: string; origin: string; now: Date }): Promise<ShiftPhoto> {
  const signed = await signedPhotoPath(link.secret, row, link.now);
  return {
    id: row.id,
    shiftId: row.shiftId!,
    employeeId: row.employeeId,
    locationId: row.locationId,
    deviceId: row.deviceId,
    contentType: row.contentType,
    size: row.size,
    sha256: row.sha256,
    createdAt: iso(row.createdAt),
    url: `${link.origin}${signed.path}`,
    urlExpiresAt: iso(signed.expiresAt),
  };
}
