import { sql } from "drizzle-orm";
import { index, integer, primaryKey, real, sqliteTable, text, uniqueIndex } from "drizzle-orm/sqlite-core";
import type { MealPeriod } from "../../src/domain/pay-rules";
import { timestamp } from "./columns";
import { locations, organizations, staffMembers } from "./directory";

/** A versioned set of pay rules: the organization's (location_id NULL) or a location's own. */
export const payRuleSets = sqliteTable(
  "pay_rule_sets",
  {
    id: text("id").primaryKey(),
    organizationId: text("organization_id")
      .notNull()
      .references(() => organizations.id),
    locationId: text("location_id").references(() => locations.id),
    /** location_id, or '' for the organization's own sets: the version index's key (NULLs never collide). */
    scopeKey: text("scope_key").notNull(),
    name: text("name").notNull(),
    effectiveFrom: text("effective_from").notNull(),
    preset: text("preset").notNull(),
    workweekStartsOn: text("workweek_starts_on").notNull(),
    /** "HH:MM" local: the workday is the 24 hours from then (the workweek starts then on workweek_starts_on). */
    workdayStartsAt: text("workday_starts_at").notNull().default("00:00"),
    dailyOvertimeAfterMinutes: integer("daily_overtime_after_minutes"),
    dailyDoubleTimeAfterMinutes: integer("daily_double_time_after_minutes"),
    weeklyOvertimeAfterMinutes: integer("weekly_overtime_after_minutes"),
    seventhConsecutiveDay: integer("seventh_consecutive_day", { mode: "boolean" }).notNull(),
    overtimeMultiplier: real("overtime_multiplier").notNull(),
    doubleTimeMultiplier: real("double_time_multiplier").notNull(),
    roundingIncrementMinutes: integer("rounding_increment_minutes").notNull(),
    roundingMode: text("rounding_mode").notNull(),
    /** The meal periods in order (JSON array of {afterMinutes, minimumMinutes, waivableUpToMinutes?}); [] for none. */
    mealBreaks: text("meal_breaks", { mode: "json" }).$type<MealPeriod[]>().notNull().default(sql`'[]'`),
    /** Hours of the one meal premium a workday earns when it misses a period. */
    mealPenaltyHours: real("meal_penalty_hours").notNull().default(1),
    createdAt: timestamp("created_at").notNull(),
    updatedAt: timestamp("updated_at").notNull(),
    deletedAt: timestamp("deleted_at"),
  },
  (t) => [
    // One version per scope and date: which set governs a day is never ambiguous.
    uniqueIndex("pay_rule_sets_version").on(t.organizationId, t.scopeKey, t.effectiveFrom).where(sql`deleted_at IS NULL`),
  ],
);

/** The rule sets a close of a period read (in force on one of its dates): they can no longer change. */
export const payRuleSetUses = sqliteTable(
  "pay_rule_set_uses",
  {
    ruleSetId: text("rule_set_id")
      .notNull()
      .references(() => payRuleSets.id),
    organizationId: text("organization_id").notNull(),
    periodStartDate: text("period_start_date").notNull(),
  },
  (t) => [primaryKey({ columns: [t.ruleSetId, t.periodStartDate] })],
);

/**
 * How an organization's pay periods are cut; no row means the default (weekly from the Monday of its creation week).
 * `revision` counts what fixed the grid (approvals, closes): a settings change guards on it.
 */
export const payPeriodSettings = sqliteTable("pay_period_settings", {
  organizationId: text("organization_id")
    .primaryKey()
    .references(() => organizations.id),
  frequency: text("frequency").notNull(),
  anchorDate: text("anchor_date").notNull(),
  revision: integer("revision").notNull().default(0),
  updatedAt: timestamp("updated_at").notNull(),
});

/**
 * Where the organization's payroll goes: its provider, the provider's company code and batch id, and the earning
 * code of each line kind (`KIND`, `KIND:RULE`, `TIME_OFF:<policy type>`). No row: no provider, no codes.
 */
export const payrollSettings = sqliteTable("payroll_settings", {
  organizationId: text("organization_id")
    .primaryKey()
    .references(() => organizations.id),
  provider: text("provider"),
  companyCode: text("company_code"),
  batchId: text("batch_id"),
  earningCodes: text("earning_codes", { mode: "json" }).$type<Record<string, string>>().notNull(),
  updatedAt: timestamp("updated_at").notNull(),
});

/** A period that was closed at least once; an open period that never was has no row. */
export const payPeriods = sqliteTable(
  "pay_periods",
  {
    organizationId: text("organization_id")
      .notNull()
      .references(() => organizations.id),
    startDate: text("start_date").notNull(),
    endDate: text("end_date").notNull(),
    status: text("status", { enum: ["OPEN", "CLOSED"] }).notNull(),
    version: integer("version").notNull(),
    closedAt: timestamp("closed_at"),
    closedBy: text("closed_by"),
    snapshotHash: text("snapshot_hash"),
    reopenedAt: timestamp("reopened_at"),
    reopenedBy: text("reopened_by"),
    reopenReason: text("reopen_reason"),
    /**
     * The dates a close froze (set by each close): the first day of the first workweek overlapping the period to
     * the last day of the last one, under every rule set in force then. The freeze guards compare with these.
     */
    frozenFrom: text("frozen_from"),
    frozenTo: text("frozen_to"),
    /**
     * The hourly wage each staff member's paid time off of the period was paid at by the last close (staff member id
     * → wage; 0 when salaried): while the period is closed its time-off lines read these, not the wage of today.
     * NULL for a close from before the column.
     */
    timeOffWages: text("time_off_wages", { mode: "json" }).$type<Record<string, number>>(),
  },
  (t) => [
    primaryKey({ columns: [t.organizationId, t.startDate] }),
    index("pay_periods_end").on(t.organizationId, t.endDate),
    index("pay_periods_frozen").on(t.organizationId, t.frozenTo),
  ],
);

/**
 * Each close's payroll, stored once: the payroll read answers the latest version as stored. A close writes it to R2
 * (FILES) first and commits this row last, with the object's key, size and SHA-256: an object no row names is the
 * orphan of a close that failed, swept by the Cron (src/jobs/sweep-files.ts). `snapshot` holds the packed payroll of
 * closes made before R2 (src/features/pay/snapshot.data.ts), NULL since.
 */
export const payPeriodSnapshots = sqliteTable(
  "pay_period_snapshots",
  {
    organizationId: text("organization_id")
      .notNull()
      .references(() => organizations.id),
    periodStartDate: text("period_start_date").notNull(),
    version: integer("version").notNull(),
    snapshot: text("snapshot"),
    snapshotHash: text("snapshot_hash").notNull(),
    objectKey: text("object_key"),
    objectSize: integer("object_size"),
    objectSha256: text("object_sha256"),
  },
  (t) => [
    primaryKey({ columns: [t.organizationId, t.periodStartDate, t.version] }),
    uniqueIndex("pay_period_snapshots_object").on(t.objectKey),
  ],
);

/** An employee's timesheet approved for a period: their shifts dated in [start_date, end_date] are frozen. */
export const timesheetApprovals = sqliteTable(
  "timesheet_approvals",
  {
    organizationId: text("organization_id")
      .notNull()
      .references(() => organizations.id),
    periodStartDate: text("period_start_date").notNull(),
    periodEndDate: text("period_end_date").notNull(),
    employeeId: text("employee_id")
      .notNull()
      .references(() => staffMembers.id),
    approvedAt: timestamp("approved_at").notNull(),
    approvedBy: text("approved_by").notNull(),
  },
  (t) => [
    primaryKey({ columns: [t.organizationId, t.periodStartDate, t.employeeId] }),
    // The freeze guard of a shift write looks up the employee's approval covering a date.
    index("timesheet_approvals_employee").on(t.employeeId, t.periodEndDate),
  ],
);
