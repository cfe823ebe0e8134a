import { conflict, ProblemError } from "./problem";

export const photoUrlInvalid = () =>
  new ProblemError(403, "PHOTO_URL_INVALID", "This photo link is not valid: use a link from GET /api/timesheets/{id}/photos.");

export const photoUrlExpired = () =>
  new ProblemError(403, "PHOTO_URL_EXPIRED", "This photo link has expired: list the shift's photos again for a fresh one.");

export const photoRequired = () =>
  new ProblemError(422, "PHOTO_REQUIRED", "This location requires a photo with each kiosk punch: upload one, then send its photoId.", {
    errors: [{ path: "photoId", message: "required at this location (kioskPhotoRequired)" }],
  });

export const photoAlreadyAttached = () =>
  conflict("PHOTO_ALREADY_ATTACHED", "The photo is attached to another punch already: take a new one.");
