import { and, asc, gt, gte, isNull, type SQL } from "drizzle-orm";
import type { SQLiteColumn } from "drizzle-orm/sqlite-core";
import type { Context } from "hono";
import type { ListOptions } from "@/platform/schemas/list-query";
import { invalidField } from "@/problems/problem";

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

/** A read's page and the query of its next page (absent on the last): the handler links it (`linkNext`). */
export interface Paged<T> {
  page: T;
  next?: Record<string, string>;
}

/** The page of a read, its next page linked when there is one. */
export function linkNext<T>(c: Context, { page, next }: Paged<T>): T {
  if (next) setNextLink(c, next);
  return page;
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
