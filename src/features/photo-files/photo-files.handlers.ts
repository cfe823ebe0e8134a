import { signatureValid } from "@/auth/photo-url";
import { getFile, photoKey } from "@/data/files";
import { filesOf, shardOfOrganization } from "@/data/shards";
import { PHOTO_TYPES } from "@/domain/photo-content";
import type { AppRouteHandler } from "@/platform/http/env";
import { photoUrlExpired, photoUrlInvalid } from "@/problems/photos";
import { notFound } from "@/problems/problem";
import type { GetPhotoFileRoute } from "./photo-files.routes";

/** The signature first (a forged link learns nothing, not even whether it expired), then the expiry, then R2. */
export const getPhotoFile: AppRouteHandler<GetPhotoFileRoute> = async (c) => {
  const { photoId } = c.req.valid("param");
  const { organizationId, expires, signature } = c.req.valid("query");
  if (!(await signatureValid(c.env.PHOTO_URL_SECRET, { organizationId, photoId, expires }, signature))) throw photoUrlInvalid();
  const secondsLeft = expires - Math.floor(Date.now() / 1000);
  if (secondsLeft <= 0) throw photoUrlExpired();
  // The bucket of the organization's region (its shard's, which the directory names): an EU photo is read in the EU.
  const shard = await shardOfOrganization(c.env, organizationId);
  const object = shard === null ? null : await getFile(filesOf(c.env, shard), photoKey(organizationId, photoId));
  if (!object) throw notFound("Photo");
  // Only an image type the upload judged, never whatever else the object might say; nosniff keeps browsers to it.
  const stored = object.httpMetadata?.contentType ?? "";
  const contentType = (PHOTO_TYPES as readonly string[]).includes(stored) ? stored : "application/octet-stream";
  return new Response(object.body, {
    status: 200,
    headers: {
      "Content-Type": contentType,
      "Content-Length": String(object.size),
      "Cache-Control": `private, max-age=${secondsLeft}`,
      "X-Content-Type-Options": "nosniff",
    },
  }) as never;
};
