/** A photo as a kiosk punch finds it: where it was taken, and the shift a punch attached it to (null: none yet). */
export interface PhotoFound {
  locationId: string;
  shiftId: string | null;
}

export type KioskPhotoVerdict = "ok" | "required" | "not_found" | "attached";

/**
 * Whether a kiosk punch may go ahead as to its photo: a location with kioskPhotoRequired needs one; a photo named must
 * be one taken at the punch's location (another location's is as unknown as a missing one) and not yet attached to a
 * punch. Without a requirement, no photo is fine.
 */
export function kioskPhotoVerdict(input: {
  required: boolean;
  photoId: string | null | undefined;
  photo: PhotoFound | null;
  locationId: string;
}): KioskPhotoVerdict {
  if (!input.photoId) return input.required ? "required" : "ok";
  if (!input.photo || input.photo.locationId !== input.locationId) return "not_found";
  if (input.photo.shiftId !== null) return "attached";
  return "ok";
}
