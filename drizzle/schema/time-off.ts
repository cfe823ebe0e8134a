import { index, integer, real, sqliteTable, text, uniqueIndex } from "drizzle-orm/sqlite-core";
import type { LimitSettings } from "../../src/domain/accrual";
import type { AssignedStaff } from "../../src/domain/time-off-inclusion";
import { lifecycle, timestamp } from "./columns";
import { locations, organizations, staffMembers } from "./directory";

export const policyTypes = sqliteTable(
  "policy_types",
  {
    id: text("id").primaryKey(),
    organizationId: text("organization_id")
      .notNull()
      .references(() => organizations.id),
    name: text("name").notNull(),
    type: text("type").notNull(),
    ...lifecycle,
  },
  (t) => [index("policy_types_organization_id").on(t.organizationId, t.id)],
);

export const timeOffSettings = sqliteTable("time_off_settings", {
  organizationId: text("organization_id")
    .primaryKey()
    .references(() => organizations.id),
  settings: text("settings", { mode: "json" }).$type<Record<string, unknown>>().notNull(),
  createdAt: timestamp("created_at").notNull(),
  updatedAt: timestamp("updated_at").notNull(),
});

export const timeOffPolicies = sqliteTable(
  "time_off_policies",
  {
    id: text("id").primaryKey(),
    organizationId: text("organization_id")
      .notNull()
      .references(() => organizations.id),
    locationId: text("location_id").references(() => locations.id),
    name: text("name").notNull(),
    typeId: text("type_id")
      .notNull()
      .references(() => policyTypes.id),
    paid: integer("paid", { mode: "boolean" }).notNull().default(true),
    units: text("units", { enum: ["hours", "days"] })
      .notNull()
      .default("hours"),
    requiresApproval: integer("requires_approval", { mode: "boolean" }).notNull().default(true),
    /** In the policy's units; null: nothing expires at the year boundary. */
    carryoverLimit: real("carryover_limit"),
    allowNegativeBalance: integer("allow_negative_balance", { mode: "boolean" }).notNull().default(false),
    fullDayDuration: real("full_day_duration").notNull().default(8),
    status: text("status", { enum: ["Draft", "Active", "Inactive"] })
      .notNull()
      .default("Draft"),
    defaultSettings: text("default_settings", { mode: "json" }).$type<{ assignedStaff?: AssignedStaff }>().notNull(),
    limitSettings: text("limit_settings", { mode: "json" }).$type<LimitSettings>().notNull(),
    /** When the policy last became Active: accrual never reaches back before it. */
    activatedAt: timestamp("activated_at"),
    /** Shifts updated at or after this instant are (re)considered by the next per-hour accrual pass. */
    shiftCursor: timestamp("shift_cursor"),
    ...lifecycle,
  },
  (t) => [
    index("time_off_policies_organization_id").on(t.organizationId, t.id),
    index("time_off_policies_status").on(t.status, t.organizationId),
  ],
);

/**
 * A worker's balance in a policy. `isIncluded` null follows the policy's assignedStaff rule; a row exists for
 * every worker the rule or an explicit choice ever included (made on first need, idempotently).
 */
export const workerPolicies = sqliteTable(
  "worker_policies",
  {
    id: text("id").primaryKey(),
    organizationId: text("organization_id")
      .notNull()
      .references(() => organizations.id),
    policyId: text("policy_id")
      .notNull()
      .references(() => timeOffPolicies.id),
    workerId: text("worker_id")
      .notNull()
      .references(() => staffMembers.id),
    isIncluded: integer("is_included", { mode: "boolean" }),
    /** When an explicit inclusion was last switched on, or the Cron pass last saw the balance excluded. */
    includedAt: timestamp("included_at"),
    /** The last local date whose fixed-amount accruals the Cron pass has written (a watermark, not the truth). */
    accruedThrough: text("accrued_through"),
    ...lifecycle,
  },
  (t) => [
    uniqueIndex("worker_policies_policy_worker").on(t.policyId, t.workerId),
    // The accrual pass pages a policy's balances by id from a cursor: a page reads its own rows, not the policy's.
    index("worker_policies_policy_id").on(t.policyId, t.id),
    index("worker_policies_worker").on(t.workerId, t.policyId),
    index("worker_policies_organization_id").on(t.organizationId, t.id),
  ],
);

export const LEDGER_KINDS = ["accrual", "usage", "adjustment", "carryover", "reversal"] as const;

/** Append-only: never updated or deleted. A balance is the sum of its entries. */
export const timeOffLedger = sqliteTable(
  "time_off_ledger",
  {
    id: text("id").primaryKey(),
    organizationId: text("organization_id")
      .notNull()
      .references(() => organizations.id),
    workerPolicyId: text("worker_policy_id")
      .notNull()
      .references(() => workerPolicies.id),
    kind: text("kind", { enum: LEDGER_KINDS }).notNull(),
    hours: real("hours").notNull(),
    /** Local date (YYYY-MM-DD) in the organization's zone. */
    effectiveDate: text("effective_date").notNull(),
    /** period | request | shift | adjustment | year */
    sourceType: text("source_type").notNull(),
    /** The period key, request id, shift id (with its revision) or a fresh id: unique per balance and kind. */
    sourceId: text("source_id").notNull(),
    /** For shift entries: the payable minutes the shift had when this entry was written. */
    basis: integer("basis"),
    createdAt: timestamp("created_at").notNull(),
  },
  (t) => [
    uniqueIndex("time_off_ledger_source").on(t.workerPolicyId, t.kind, t.sourceType, t.sourceId),
    index("time_off_ledger_balance").on(t.workerPolicyId, t.effectiveDate),
  ],
);

export const REQUEST_STATUSES = ["pending", "approved", "declined", "cancelled"] as const;

export const timeOffRequests = sqliteTable(
  "time_off_requests",
  {
    id: text("id").primaryKey(),
    organizationId: text("organization_id")
      .notNull()
      .references(() => organizations.id),
    workerId: text("worker_id")
      .notNull()
      .references(() => staffMembers.id),
    policyId: text("policy_id")
      .notNull()
      .references(() => timeOffPolicies.id),
    workerPolicyId: text("worker_policy_id")
      .notNull()
      .references(() => workerPolicies.id),
    /** Where the worker is away from: one of their locations (the first, unless the request names another). */
    locationId: text("location_id").references(() => locations.id),
    startAt: timestamp("start_at").notNull(),
    endAt: timestamp("end_at").notNull(),
    isAllDay: integer("is_all_day", { mode: "boolean" }).notNull().default(false),
    hourConfiguration: text("hour_configuration", { mode: "json" }).$type<{ date: string; hours: number }[]>().notNull(),
    totalHours: real("total_hours").notNull(),
    status: text("status", { enum: REQUEST_STATUSES }).notNull().default("pending"),
    note: text("note"),
    timezone: text("timezone").notNull(),
    utcOffset: integer("utc_offset").notNull(),
    submittedAt: timestamp("submitted_at").notNull(),
    decidedAt: timestamp("decided_at"),
    declineReason: text("decline_reason"),
    ...lifecycle,
  },
  (t) => [
    index("time_off_requests_organization_id").on(t.organizationId, t.id),
    index("time_off_requests_worker_start").on(t.workerId, t.startAt),
    index("time_off_requests_balance").on(t.workerPolicyId, t.status),
  ],
);
