import { z } from "@hono/zod-openapi";
import { Instant } from "./validation";

/* The query parameters of lists: page size, cursor, incremental sync. */

export const DEFAULT_LIMIT = 100;
export const MAX_LIMIT = 500;

/** A query integer: decimal digits only (`0x10`, `1e2`, ` 16` are refused, never read as numbers). */
export const queryInteger = (min: number, max: number, fallback: number, description: string) =>
  z
    .string()
    .regex(/^[0-9]{1,9}$/, "must be decimal digits")
    .default(String(fallback))
    .transform(Number)
    .pipe(z.number().int().min(min).max(max))
    .openapi({ type: "integer", minimum: min, maximum: max, default: fallback, example: fallback, description });

/** A boolean query flag: the words `true` and `false`, nothing else. */
export const queryBoolean = (description: string) =>
  z
    .enum(["true", "false"])
    .optional()
    .transform((v) => (v === undefined ? undefined : v === "true"))
    .openapi({ description });

export const ListQuery = z.object({
  limit: queryInteger(1, MAX_LIMIT, DEFAULT_LIMIT, `Page size, 1–${MAX_LIMIT} (decimal digits).`),
  cursor: z.string().min(1).max(200).optional().openapi({
    description: 'Opaque cursor from the `Link: rel="next"` header of the previous page; one this list did not hand out is a 400.',
  }),
  updatedSince: Instant.optional().openapi({
    description: "Only records updated at or after this instant (for incremental sync).",
    example: "2026-01-01T00:00:00Z",
  }),
  includeDeleted: z
    .enum(["true", "false"])
    .default("false")
    .transform((v) => v === "true")
    .openapi({ description: "Include soft-deleted records." }),
});

export type ListOptions = z.infer<typeof ListQuery>;

/** A page of an append-only list, which has no deletions or updates to filter: `limit` and `cursor` only. */
export const PageQuery = ListQuery.pick({ limit: true, cursor: true });
