import { sql } from "drizzle-orm";
import { index, real, sqliteTable, text, uniqueIndex } from "drizzle-orm/sqlite-core";
import { lifecycle } from "./columns";
import { organizations, staffMembers } from "./directory";

/**
 * Effective-dated hourly rates of a staff member, optionally for one role and/or one location (NULL: any). A shift
 * is paid the most specific rate effective on its start date (domain/wage-rate), and keeps it (shifts.wage_rate_id).
 */
export const wageRates = sqliteTable(
  "wage_rates",
  {
    id: text("id").primaryKey(),
    organizationId: text("organization_id")
      .notNull()
      .references(() => organizations.id),
    employeeId: text("employee_id")
      .notNull()
      .references(() => staffMembers.id),
    roleId: text("role_id"),
    locationId: text("location_id"),
    hourlyRate: real("hourly_rate").notNull(),
    /** Local date (YYYY-MM-DD) from which the rate applies to shifts starting that day or later. */
    effectiveFrom: text("effective_from").notNull(),
    ...lifecycle,
  },
  (t) => [
    // NULL role/location count as a value ('' never is an id): one live rate per (employee, role, location, date).
    uniqueIndex("wage_rates_unique")
      .on(t.employeeId, sql`coalesce(${t.roleId}, '')`, sql`coalesce(${t.locationId}, '')`, t.effectiveFrom)
      .where(sql`deleted_at IS NULL`),
    index("wage_rates_organization").on(t.organizationId, t.id),
  ],
);
