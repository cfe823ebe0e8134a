import { z } from "@hono/zod-openapi";
import { and, asc, gt, gte, isNull, type SQL } from "drizzle-orm";
import type { SQLiteColumn } from "drizzle-orm/sqlite-core";
import type { Context } from "hono";
import { Instant } from "@/platform/schemas/validation";
import { invalidField } from "@/problems/problem";

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

export const encodeIdCursor = (id: string) => btoa(id).replaceAll("=", "");
/** The id a list's cursor carries; anything else is a 400 naming `cursor`, as on every list. */
export const decodeIdCursor = (cursor: string) => {
  let id = "";
  try {
    id = atob(cursor);
  } catch {
    // reported below
  }
  if (!/^[0-9A-Za-z-]{1,64}$/.test(id)) throw invalidField("cursor", "not a cursor from this list's Link header");
  return id;
};

/** A cursor over a composite order key (e.g. a date and an id): its parts joined by `|`, base64 without padding. */
export const encodeKeyCursor = (...parts: (string | number)[]) => btoa(parts.join("|")).replaceAll("=", "");

/**
 * The parts of a key cursor (`encodeKeyCursor`), read with `pattern` (one capture a part, anchored); anything else
 * is a 400 naming `cursor`, as on every list.
 */
export function decodeKeyCursor(cursor: string, pattern: RegExp): string[] {
  let text = "";
  try {
    text = atob(cursor);
  } catch {
    // reported below
  }
  const match = pattern.exec(text);
  if (!match) throw invalidField("cursor", "not a cursor from this list's Link header");
  return match.slice(1);
}

interface KeysetColumns {
  id: SQLiteColumn;
  updatedAt: SQLiteColumn;
  deletedAt: SQLiteColumn;
}

/** The WHERE and ORDER BY of a keyset page; the query fetches limit + 1 rows to know whether more remain. */
export function keysetPage(table: KeysetColumns, options: ListOptions) {
  const conditions: (SQL | undefined)[] = [
    options.cursor ? gt(table.id, decodeIdCursor(options.cursor)) : undefined,
    options.updatedSince ? gte(table.updatedAt, new Date(options.updatedSince)) : undefined,
    options.includeDeleted ? undefined : isNull(table.deletedAt),
  ];
  return { where: and(...conditions), orderBy: asc(table.id), limit: options.limit + 1 };
}

/** The one RFC 8288 `Link: <…>; rel="next"` of every list: the same request with `params` set (its next cursor). */
export function setNextLink(c: Context, params: Record<string, string>) {
  const next = new URL(c.req.url);
  for (const [name, value] of Object.entries(params)) next.searchParams.set(name, value);
  c.header("Link", `<${next.pathname}${next.search}>; rel="next"`);
}

/**
 * A page of `rows` read with `limit + 1`: trims the extra row and, when there was one, links the next page, whose
 * query `nextParams` answers from the page's last row.
 */
export function pageOf<T>(c: Context, rows: T[], limit: number, nextParams: (last: T) => Record<string, string>): T[] {
  if (rows.length <= limit) return rows;
  const page = rows.slice(0, limit);
  setNextLink(c, nextParams(page[page.length - 1]!));
  return page;
}

/** A page of a list keyset-paged by id (`keysetPage`). */
export const pageResult = <T extends { id: string }>(c: Context, rows: T[], limit: number): T[] =>
  pageOf(c, rows, limit, (last) => ({ cursor: encodeIdCursor(last.id) }));
