import { photos } from "@db/schema";
import type { Database } from "@/data/client";
import { deleteFiles, photoKey, putFile } from "@/data/files";
import { newId } from "@/data/ids";
import { guardedBatch } from "@/data/write/guarded-batch";
import type { Principal } from "@/domain/permissions";
import type { PhotoType } from "@/domain/photo-content";
import { type PhotoRow, serializeKioskPhoto } from "./kiosk-punches.schemas";

/**
 * A kiosk photo: the object in R2 first (photos/{organizationId}/{id}), then its row and `photo.created` in one D1
 * batch; a batch that fails deletes the object again, so no row ever names a missing object.
 */
export async function storePhoto(
  writer: { db: Database; principal: Principal; files: R2Bucket },
  photo: { bytes: Uint8Array; contentType: PhotoType },
) {
  const { db, principal, files } = writer;
  const device = principal.device!;
  const organizationId = principal.organizationId!;
  const now = new Date();
  const id = newId(now.getTime());
  const stored = await putFile(files, photoKey(organizationId, id), photo.bytes, photo.contentType);
  const row: PhotoRow = {
    id,
    organizationId,
    locationId: device.locationId,
    deviceId: device.deviceId,
    employeeId: null,
    shiftId: null,
    objectKey: stored.key,
    size: stored.size,
    sha256: stored.sha256,
    contentType: photo.contentType,
    createdAt: now,
  };
  const answer = serializeKioskPhoto(row);
  try {
    await guardedBatch({ db, principal, organizationId }, [db.insert(photos).values(row)], [], {
      events: [{ type: "photo.created", organizationId, occurredAt: now, data: answer }],
    });
  } catch (error) {
    await deleteFiles(files, [stored.key]).catch(() => undefined);
    throw error;
  }
  return answer;
}
