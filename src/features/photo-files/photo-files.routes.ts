import { z } from "@hono/zod-openapi";
import { publicProblems } from "@/platform/openapi/helpers";
import { defineRoute } from "@/platform/routes/define-route";

export const PhotoFileParams = z.object({
  photoId: z
    .string()
    .min(1)
    .max(64)
    .openapi({ param: { name: "photoId", in: "path" }, description: "Photo id", example: "0193a5a0-7c1e-7b2a-9d4e-1f2a3b4c5d6e" }),
});

export const PhotoFileQuery = z.object({
  organizationId: z.string().min(1).max(64).openapi({ description: "The photo's organization, as the link names it." }),
  expires: z
    .string()
    .regex(/^[0-9]{1,12}$/, "must be decimal digits")
    .transform(Number)
    .openapi({ type: "integer", description: "When the link stops working (Unix seconds), as the link names it.", example: 1773500000 }),
  signature: z.string().min(1).max(128).openapi({ description: "The link's signature, as the link names it." }),
});

export const getPhotoFile = defineRoute({
  method: "get",
  path: "/api/photos/{photoId}",
  operationId: "getPhotoFile",
  flags: { scope: "public" },
  tags: ["Photos"],
  summary: "Download a photo",
  description:
    "The image of a signed link from `GET /api/timesheets/{id}/photos` (the link is the credential: no token). It " +
    "serves the image, streamed, with its own Content-Type, until `expires` (5 minutes after the listing); then 403 " +
    "`PHOTO_URL_EXPIRED` — list the photos again for a fresh link. A link whose signature does not match its " +
    "organization, photo and expiry is 403 `PHOTO_URL_INVALID`; a photo deleted with its organization is 404 `PHOTO_NOT_FOUND`.",
  security: [],
  request: { params: PhotoFileParams, query: PhotoFileQuery },
  responses: {
    200: {
      description: "The image",
      content: {
        "image/jpeg": { schema: z.string().openapi({ format: "binary" }) },
        "image/png": { schema: z.string().openapi({ format: "binary" }) },
        "image/webp": { schema: z.string().openapi({ format: "binary" }) },
      },
    },
    ...publicProblems("PHOTO_URL_INVALID", "PHOTO_URL_EXPIRED", "PHOTO_NOT_FOUND"),
  },
});
export type GetPhotoFileRoute = typeof getPhotoFile;
