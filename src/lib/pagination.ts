import { z } from "@hono/zod-openapi";
import { and, asc, gt, gte, isNull, type SQL } from "drizzle-orm";
import type { Context } from "hono";
import type { SQLiteColumn } from "drizzle-orm/sqlite-core";

export const DEFAULT_LIMIT = 100;
export const MAX_LIMIT = 500;

export const ListQuery = z.object({
  limit: z.coerce.number().int().min(1).max(MAX_LIMIT).default(DEFAULT_LIMIT).openapi({
    description: `Page size, 1–${MAX_LIMIT}.`,
    example: 100,
  }),
  cursor: z.string().min(1).max(200).optional().openapi({
    description: "Opaque cursor from the `Link: rel=\"next\"` header of the previous page.",
  }),
  updatedSince: z.iso.datetime({ offset: true }).optional().openapi({
    description: "Only records updated at or after this instant (for incremental sync).",
    example: "2026-01-01T00:00:00Z",
  }),
  includeDeleted: z
    .enum(["true", "false"])
    .default("false")
    .transform((v) => v === "true")
    .openapi({ description: "Include soft-deleted records.", type: "string" }),
});

export type ListOptions = z.infer<typeof ListQuery>;

const encodeCursor = (id: string) => btoa(id).replaceAll("=", "");
const decodeCursor = (cursor: string) => {
  try {
    return atob(cursor);
  } catch {
    return "";
  }
};

interface KeysetColumns {
  id: SQLiteColumn;
  updatedAt: SQLiteColumn;
  deletedAt: SQLiteColumn;
}

/** The WHERE and ORDER BY of a keyset page; the query fetches limit + 1 rows to know whether more remain. */
export function keysetPage(table: KeysetColumns, options: ListOptions) {
  const conditions: (SQL | undefined)[] = [
    options.cursor ? gt(table.id, decodeCursor(options.cursor)) : undefined,
    options.updatedSince ? gte(table.updatedAt, new Date(options.updatedSince)) : undefined,
    options.includeDeleted ? undefined : isNull(table.deletedAt),
  ];
  return { where: and(...conditions), orderBy: asc(table.id), limit: options.limit + 1 };
}

/** Trims the extra row and, when there is one, sets the RFC 8288 `Link: <…>; rel="next"` header. */
export function pageResult<T extends { id: string }>(c: Context, rows: T[], limit: number): T[] {
  if (rows.length <= limit) return rows;
  const page = rows.slice(0, limit);
  const next = new URL(c.req.url);
  next.searchParams.set("cursor", encodeCursor(page[page.length - 1]!.id));
  c.header("Link", `<${next.pathname}${next.search}>; rel="next"`);
  return page;
}
