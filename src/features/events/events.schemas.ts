import { z } from "@hono/zod-openapi";
import { FEED_EVENT_TYPES } from "@/data/outbox/outbox";
import { DEFAULT_LIMIT, MAX_LIMIT, queryInteger } from "@/platform/schemas/list-query";

export const Event = z
  .object({
    id: z.string().openapi({ description: "Unique per event: receivers de-duplicate on it (it is the webhook-id)." }),
    type: z.enum(FEED_EVENT_TYPES),
    organizationId: z.string(),
    occurredAt: z.string().openapi({ format: "date-time" }),
    sequence: z.number().int().openapi({ description: "Rises by exactly one per event of the organization." }),
    data: z.unknown().openapi({ description: "The resource as the API answers it, as the change left it." }),
  })
  .openapi("Event");

const typeList = z
  .string()
  .max(2000)
  .transform((value) =>
    value
      .split(",")
      .map((t) => t.trim())
      .filter(Boolean),
  )
  .pipe(z.array(z.enum(FEED_EVENT_TYPES)).min(1))
  .optional()
  .openapi({
    type: "string",
    description: "Only these types, comma-separated (e.g. `shift.clocked_in,shift.clocked_out`).",
    example: "shift.clocked_in",
  });

export const EventsQuery = z.object({
  after: z
    .string()
    .regex(/^[0-9]{1,15}$/, "must be decimal digits")
    .default("0")
    .transform(Number)
    .openapi({
      type: "integer",
      minimum: 0,
      default: 0,
      description: "Events after this sequence (the last one you processed); 0: from the oldest kept.",
    }),
  types: typeList,
  limit: queryInteger(1, MAX_LIMIT, DEFAULT_LIMIT, `Page size, 1–${MAX_LIMIT} (decimal digits).`),
});
