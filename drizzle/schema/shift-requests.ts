import { sql } from "drizzle-orm";
import { index, sqliteTable, text, uniqueIndex } from "drizzle-orm/sqlite-core";
import { timestamp } from "./columns";
import { locations, organizations, staffMembers } from "./directory";
import { scheduleEntries } from "./schedules";

/** A worker's request to give a published entry away (DROP) or trade it (SWAP), with its state machine. */
export const shiftRequests = sqliteTable(
  "shift_requests",
  {
    id: text("id").primaryKey(),
    organizationId: text("organization_id")
      .notNull()
      .references(() => organizations.id),
    locationId: text("location_id")
      .notNull()
      .references(() => locations.id),
    type: text("type").notNull(),
    /** PENDING → ACCEPTED → APPROVED, or DECLINED / CANCELLED; PENDING or ACCEPTED past expires_at reads EXPIRED. */
    status: text("status").notNull(),
    scheduleEntryId: text("schedule_entry_id")
      .notNull()
      .references(() => scheduleEntries.id),
    requesterId: text("requester_id")
      .notNull()
      .references(() => staffMembers.id),
    targetEmployeeId: text("target_employee_id"),
    targetScheduleEntryId: text("target_schedule_entry_id"),
    acceptedBy: text("accepted_by"),
    decidedBy: text("decided_by"),
    note: text("note"),
    /** Why a CANCELLED request ended: its entry changed or was deleted, or the requester or a manager cancelled it. */
    cancelReason: text("cancel_reason"),
    expiresAt: timestamp("expires_at").notNull(),
    createdAt: timestamp("created_at").notNull(),
    updatedAt: timestamp("updated_at").notNull(),
  },
  (t) => [
    index("shift_requests_location").on(t.organizationId, t.locationId, t.createdAt),
    // One live request per entry: a second is 409 SHIFT_REQUEST_EXISTS, decided by the index, not a read.
    uniqueIndex("shift_requests_live_entry").on(t.scheduleEntryId).where(sql`status IN ('PENDING', 'ACCEPTED')`),
    // A write that changes an entry ends the live requests naming it as either entry: found by both indexes.
    index("shift_requests_live_target_entry").on(t.targetScheduleEntryId).where(sql`status IN ('PENDING', 'ACCEPTED')`),
  ],
);
