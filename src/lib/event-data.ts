import { getTableColumns } from "drizzle-orm";
import type { SQLiteTable } from "drizzle-orm/sqlite-core";
import { events, locations, openShiftPreferences, shifts, staffMembers, timeOffPolicies, timeOffRequests } from "../../drizzle/schema";
import { serializeLocation } from "../routes/locations/locations.schemas";
import { serializePreferenceRecord } from "../routes/open-shifts/open-shifts.schemas";
import { serializePolicy } from "../routes/policies/policies.schemas";
import { serializeRequestRecord } from "../routes/time-off-requests/request-read";
import { serializeStaffMember } from "../routes/staff-members/staff-members.schemas";
import { breaksOfShift } from "../routes/time-tracking/shift-break-copies";
import { serializeShift } from "../routes/time-tracking/shift.schemas";
import type { EventType } from "./events";
import { iso } from "./time";

type EventRow = typeof events.$inferSelect;

/** A row snapshot (column name → SQLite value, lib/events rowSnapshot) read back as drizzle reads the row. */
function rowOf<T extends SQLiteTable>(table: T, snapshot: Record<string, unknown>): T["$inferSelect"] {
  const row: Record<string, unknown> = {};
  for (const [key, column] of Object.entries(getTableColumns(table))) {
    const value = snapshot[column.name];
    row[key] = value === null || value === undefined ? null : column.mapFromDriverValue(value);
  }
  return row as T["$inferSelect"];
}

/** How each snapshotted table's rows are answered by the API. */
const SERIALIZERS: Record<string, (snapshot: Record<string, unknown>) => unknown> = {
  locations: (snapshot) => serializeLocation(rowOf(locations, snapshot)),
  staff_members: (snapshot) => serializeStaffMember(rowOf(staffMembers, snapshot)),
  shifts: (snapshot) => {
    const row = rowOf(shifts, snapshot);
    return serializeShift(row, breaksOfShift(row));
  },
  // The request's own fields: its policy, balance and worker-policy blocks are reads of other rows at answer time.
  time_off_requests: (snapshot) => serializeRequestRecord(rowOf(timeOffRequests, snapshot)),
  // The policy's own fields: its type block and assigned-staff count are reads of other rows.
  time_off_policies: (snapshot) => {
    const { type: _type, assignedStaffCount: _count, ...policy } = serializePolicy(rowOf(timeOffPolicies, snapshot), { id: "", name: "", type: "" }, 0);
    return policy;
  },
  open_shift_preferences: (snapshot) => serializePreferenceRecord(rowOf(openShiftPreferences, snapshot)),
};

/** An event as the feed and webhooks carry it. */
export function serializeEvent(row: EventRow) {
  const stored = JSON.parse(row.data) as unknown;
  const data = row.form === "wire" ? stored : SERIALIZERS[row.form]!(stored as Record<string, unknown>);
  return { id: row.id, type: row.type as EventType, organizationId: row.organizationId, occurredAt: iso(row.occurredAt), sequence: row.sequence, data };
}

export type EventWire = ReturnType<typeof serializeEvent>;
