import { and, eq, isNull, type Placeholder, type SQL } from "drizzle-orm";
import type { SQLiteColumn } from "drizzle-orm/sqlite-core";

interface TenantColumns {
  organizationId: SQLiteColumn;
  deletedAt: SQLiteColumn;
}

/**
 * The organization scope every query of tenant data goes through, so a missing scope shows in review.
 * Soft-deleted rows are out unless asked for. The organization is a value, or a prepared statement's placeholder.
 */
export const inOrganization = (
  table: TenantColumns,
  organizationId: string | Placeholder,
  options: { includeDeleted?: boolean } = {},
): SQL => and(eq(table.organizationId, organizationId), options.includeDeleted ? undefined : isNull(table.deletedAt))!;

/** The columns a soft delete sets. */
export const softDeleted = (now = new Date()) => ({ active: false, deletedAt: now, updatedAt: now });
