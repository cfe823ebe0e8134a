import { sql } from "drizzle-orm";
import { index, integer, primaryKey, sqliteTable, text, uniqueIndex } from "drizzle-orm/sqlite-core";
import { lifecycle, timestamp } from "./columns";
import { organizations, staffMembers } from "./directory";

/**
 * Cost codes: a tree of at most 5 levels (`depth` 1 for a root; kept by the writes, which guard it in their batch).
 * `code` is unique among the live siblings (roots are siblings of each other); `externalId` per organization.
 * `assignAll`: every staff member may use the code; else only those in cost_code_assignments.
 */
export const costCodes = sqliteTable(
  "cost_codes",
  {
    id: text("id").primaryKey(),
    organizationId: text("organization_id")
      .notNull()
      .references(() => organizations.id),
    // No foreign key: a move copies an organization's rows table by table in key order, and a parent may sort after
    // its child (a code moved under a newer one). The parent is checked live in the write's batch (cost-codes guards).
    parentId: text("parent_id"),
    code: text("code").notNull(),
    name: text("name").notNull(),
    externalId: text("external_id"),
    depth: integer("depth").notNull(),
    assignAll: integer("assign_all", { mode: "boolean" }).notNull().default(false),
    ...lifecycle,
  },
  (t) => [
    // A code is unique among its live siblings: the roots of the organization, or the children of one parent.
    uniqueIndex("cost_codes_root_code").on(t.organizationId, t.code).where(sql`parent_id IS NULL AND deleted_at IS NULL`),
    uniqueIndex("cost_codes_child_code").on(t.parentId, t.code).where(sql`parent_id IS NOT NULL AND deleted_at IS NULL`),
    uniqueIndex("cost_codes_organization_external_id").on(t.organizationId, t.externalId),
    index("cost_codes_organization_id").on(t.organizationId, t.id),
  ],
);

/** The staff members a cost code is assigned to (when the code is not assigned to all). */
export const costCodeAssignments = sqliteTable(
  "cost_code_assignments",
  {
    organizationId: text("organization_id")
      .notNull()
      .references(() => organizations.id),
    costCodeId: text("cost_code_id")
      .notNull()
      .references(() => costCodes.id),
    employeeId: text("employee_id")
      .notNull()
      .references(() => staffMembers.id),
    createdAt: timestamp("created_at").notNull(),
  },
  (t) => [primaryKey({ columns: [t.costCodeId, t.employeeId] }), index("cost_code_assignments_employee").on(t.employeeId)],
);
