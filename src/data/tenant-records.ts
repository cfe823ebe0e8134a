import { locations, staffMembers } from "@db/schema";
import { and, eq, type SQL } from "drizzle-orm";
import type { SQLiteColumn, SQLiteTable } from "drizzle-orm/sqlite-core";
import type { NotFoundResource } from "@/problems/codes";
import { notFound } from "@/problems/problem";
import type { Database } from "./client";
import { inOrganization } from "./tenancy";

/** A table of tenant records: every one has these columns. */
export type TenantTable = SQLiteTable & {
  id: SQLiteColumn;
  organizationId: SQLiteColumn;
  updatedAt: SQLiteColumn;
  deletedAt: SQLiteColumn;
};

export type TenantRow<T extends TenantTable> = T["$inferSelect"] & { id: string };

export const matching = (table: TenantTable, match: string | SQL) => (typeof match === "string" ? eq(table.id, match) : match);

/** The live record of the organization that `match` picks (by id when given a string), or the resource's 404. */
export async function findLive<T extends TenantTable>(
  db: Database,
  table: T,
  organizationId: string,
  match: string | SQL,
  resource: NotFoundResource,
): Promise<TenantRow<T>> {
  const [row] = (await db
    .select()
    .from(table as SQLiteTable)
    .where(and(inOrganization(table, organizationId), matching(table, match)))) as TenantRow<T>[];
  if (!row) throw notFound(resource);
  return row;
}

/** The live location of the organization, else 404 LOCATION_NOT_FOUND (another organization's is not found either). */
export const findLocation = (db: Database, organizationId: string, id: string) => findLive(db, locations, organizationId, id, "Location");

/** The live staff member of the organization, else 404 STAFF_MEMBER_NOT_FOUND. */
export const findStaffMember = (db: Database, organizationId: string, id: string) =>
  findLive(db, staffMembers, organizationId, id, "Staff member");
