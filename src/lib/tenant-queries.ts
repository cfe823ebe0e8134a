import { and, eq, type SQL } from "drizzle-orm";
import type { SQLiteColumn, SQLiteInsertValue, SQLiteTable, SQLiteUpdateSetSource } from "drizzle-orm/sqlite-core";
import type { Context } from "hono";
import type { Database } from "./db";
import { newId } from "./ids";
import { keysetPage, type ListOptions, pageResult } from "./pagination";
import { notFound } from "./problem";
import type { NotFoundResource } from "./problem-codes";
import { inOrganization, softDeleted } from "./tenancy";

/** A table of tenant records: every one has these columns. */
export type TenantTable = SQLiteTable & {
  id: SQLiteColumn;
  organizationId: SQLiteColumn;
  updatedAt: SQLiteColumn;
  deletedAt: SQLiteColumn;
};

type Row<T extends TenantTable> = T["$inferSelect"] & { id: string };

/** One keyset page of an organization's records, with the Link header set when more remain. */
export async function listPage<T extends TenantTable>(
  c: Context,
  db: Database,
  table: T,
  organizationId: string,
  query: ListOptions,
  ...filters: (SQL | undefined)[]
): Promise<Row<T>[]> {
  const page = keysetPage(table, query);
  const rows = (await db
    .select()
    .from(table as SQLiteTable)
    .where(and(inOrganization(table, organizationId, { includeDeleted: query.includeDeleted }), page.where, ...filters))
    .orderBy(page.orderBy)
    .limit(page.limit)) as Row<T>[];
  return pageResult(c, rows, query.limit);
}

/** The live record of the organization that `match` picks (by id when given a string), or the resource's 404. */
export async function findLive<T extends TenantTable>(
  db: Database,
  table: T,
  organizationId: string,
  match: string | SQL,
  resource: NotFoundResource,
): Promise<Row<T>> {
  const [row] = (await db
    .select()
    .from(table as SQLiteTable)
    .where(and(inOrganization(table, organizationId), typeof match === "string" ? eq(table.id, match) : match))) as Row<T>[];
  if (!row) throw notFound(resource);
  return row;
}

/** Updates the live record `match` picks and answers it as stored, or the resource's 404. */
export async function updateLive<T extends TenantTable>(
  db: Database,
  table: T,
  organizationId: string,
  match: string | SQL,
  values: SQLiteUpdateSetSource<T>,
  resource: NotFoundResource,
): Promise<T["$inferSelect"]> {
  const [row] = (await db
    .update(table)
    .set(values)
    .where(and(inOrganization(table, organizationId), typeof match === "string" ? eq(table.id, match) : match))
    .returning()) as T["$inferSelect"][];
  if (!row) throw notFound(resource);
  return row;
}

/** Soft-deletes the live record `match` picks (deletedAt set, active false) and answers it, or the 404. */
export const softDeleteLive = <T extends TenantTable>(
  db: Database,
  table: T,
  organizationId: string,
  match: string | SQL,
  resource: NotFoundResource,
) => updateLive(db, table, organizationId, match, softDeleted() as SQLiteUpdateSetSource<T>, resource);

/** Inserts a new record of the organization (id, timestamps and organization filled in) and answers it as stored. */
export async function insertRecord<T extends TenantTable>(
  db: Database,
  table: T,
  organizationId: string,
  values: Omit<SQLiteInsertValue<T>, "id" | "organizationId" | "createdAt" | "updatedAt">,
): Promise<T["$inferSelect"]> {
  const now = new Date();
  const [row] = (await db
    .insert(table)
    .values({ ...values, id: newId(now.getTime()), organizationId, createdAt: now, updatedAt: now } as SQLiteInsertValue<T>)
    .returning()) as T["$inferSelect"][];
  return row!;
}
