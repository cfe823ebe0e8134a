import {
  accessRoles,
  attendanceExceptions,
  attendanceSettings,
  breakTypes,
  consents,
  costCodes,
  customFields,
  type events,
  goodFaithEstimates,
  locationFairWorkweek,
  locations,
  locationWorkingTime,
  openShiftPreferences,
  organizations,
  policyTypes,
  roles,
  scheduleChanges,
  scheduleEntries,
  shiftNotes,
  shiftRequests,
  shifts,
  staffMembers,
  timeOffPolicies,
  timeOffRequests,
  wageRates,
  webhooks,
} from "@db/schema";
import type { EventType } from "@/data/outbox/outbox";
import { fromSnapshot, rowOf } from "@/data/outbox/snapshot";
import { breaksOfShift } from "@/data/shifts/break-copies.data";
import { DEFAULT_TIME_OFF_SETTINGS } from "@/domain/organization-defaults";
import { serializeAccessRole } from "@/features/access-roles/access-roles.schemas";
import { serializeAttendanceException, serializeAttendanceSettings } from "@/features/attendance/attendance.schemas";
import { serializeBreakType } from "@/features/break-types/break-types.schemas";
import { serializeCostCode } from "@/features/cost-codes/cost-codes.schemas";
import { serializeCustomField } from "@/features/custom-fields/custom-fields.schemas";
import { serializeGoodFaithEstimate, serializeLocationFairWorkweekRow } from "@/features/fair-workweek/fair-workweek.schemas";
import { deviceFields } from "@/features/kiosk/kiosk.events";
import { type DeviceRow, serializeDevice } from "@/features/kiosk/kiosk.schemas";
import { serializeOrganization } from "@/features/organizations/organizations.schemas";
import { serializeRole } from "@/features/roles/roles.schemas";
import { preferenceFields } from "@/features/scheduling/open-shifts.events";
import { type PreferenceWithWorker, serializePreference, serializePreferenceRecord } from "@/features/scheduling/open-shifts.schemas";
import { serializeEntry } from "@/features/scheduling/schedules.schemas";
import { serializeShiftRequest } from "@/features/scheduling/shift-requests.schemas";
import { serializeShiftNote } from "@/features/shift-notes/shift-notes.schemas";
import { serializeStaffMember } from "@/features/staff-members/staff-members.schemas";
import { serializePolicy, serializePolicyType } from "@/features/time-off/policies.schemas";
import { type PolicyReadRow, policyFields, serializePolicyRead } from "@/features/time-off/policy-read.data";
import { type RequestReadRow, requestFields, serializeRequest, serializeRequestRecord } from "@/features/time-off/request-read.data";
import { serializeWageRate } from "@/features/wage-rates/wage-rates.schemas";
import { serializeWebhook } from "@/features/webhooks/webhooks.schemas";
import { serializeLocationWorkingTimeRow } from "@/features/working-time/working-time.schemas";
import { iso } from "@/platform/schemas/time";
import { serializeLocation } from "@/wire/location.schemas";
import { serializeConsent, serializeScheduleChange } from "@/wire/schedule-change.schemas";
import { serializeShift } from "@/wire/shift.schemas";

type EventRow = typeof events.$inferSelect;

/** How each snapshot form is answered by the API: a table's row alone, or a read's fields (data/outbox/snapshot). */
const SERIALIZERS: Record<string, (snapshot: Record<string, unknown>) => unknown> = {
  time_off_request: (snapshot) => serializeRequest(fromSnapshot<RequestReadRow>(requestFields, snapshot)),
  time_off_policy: (snapshot) => serializePolicyRead(fromSnapshot<PolicyReadRow>(policyFields, snapshot)),
  open_shift_preference: (snapshot) => serializePreference(fromSnapshot<PreferenceWithWorker>(preferenceFields, snapshot)),
  device: (snapshot) => serializeDevice(fromSnapshot<DeviceRow>(deviceFields, snapshot)),

  locations: (snapshot) => serializeLocation(rowOf(locations, snapshot)),
  organizations: (snapshot) => serializeOrganization(rowOf(organizations, snapshot)),
  roles: (snapshot) => serializeRole(rowOf(roles, snapshot)),
  access_roles: (snapshot) => serializeAccessRole(rowOf(accessRoles, snapshot)),
  break_types: (snapshot) => serializeBreakType(rowOf(breakTypes, snapshot)),
  wage_rates: (snapshot) => serializeWageRate(rowOf(wageRates, snapshot)),
  cost_codes: (snapshot) => serializeCostCode(rowOf(costCodes, snapshot)),
  location_fair_workweek: (snapshot) => serializeLocationFairWorkweekRow(rowOf(locationFairWorkweek, snapshot)),
  location_working_time: (snapshot) => serializeLocationWorkingTimeRow(rowOf(locationWorkingTime, snapshot)),
  good_faith_estimates: (snapshot) => serializeGoodFaithEstimate(rowOf(goodFaithEstimates, snapshot)),
  custom_fields: (snapshot) => serializeCustomField(rowOf(customFields, snapshot)),
  schedule_changes: (snapshot) => serializeScheduleChange(rowOf(scheduleChanges, snapshot)),
  consents: (snapshot) => serializeConsent(rowOf(consents, snapshot)),
  policy_types: (snapshot) => serializePolicyType(rowOf(policyTypes, snapshot)),
  shift_notes: (snapshot) => serializeShiftNote(rowOf(shiftNotes, snapshot)),
  schedule_entries: (snapshot) => serializeEntry(rowOf(scheduleEntries, snapshot)),
  // A request ended by a change of its entry (features/scheduling/shift-request-endings); its status as when recorded.
  shift_requests: (snapshot) => {
    const row = rowOf(shiftRequests, snapshot);
    return serializeShiftRequest(row, row.updatedAt);
  },
  attendance_exceptions: (snapshot) => serializeAttendanceException(rowOf(attendanceExceptions, snapshot)),
  attendance_settings: (snapshot) => {
    const row = rowOf(attendanceSettings, snapshot);
    return serializeAttendanceSettings(row, row.updatedAt);
  },
  time_off_settings: (snapshot) => ({
    ...DEFAULT_TIME_OFF_SETTINGS,
    ...(snapshot.settings as object),
    updatedAt: iso(new Date(snapshot.updatedAt as number)),
  }),
  // The endpoint as the API answers it: its signing secret is never in an event.
  webhooks: (snapshot) => serializeWebhook(rowOf(webhooks, snapshot)),
  staff_members: (snapshot) => serializeStaffMember(rowOf(staffMembers, snapshot)),
  shifts: (snapshot) => {
    const row = rowOf(shifts, snapshot);
    return serializeShift(row, breaksOfShift(row));
  },
  // Events recorded by earlier builds, before the three forms above: the record's own fields, without its joined blocks.
  time_off_requests: (snapshot) => serializeRequestRecord(rowOf(timeOffRequests, snapshot)),
  time_off_policies: (snapshot) => {
    const {
      type: _type,
      assignedStaffCount: _count,
      ...policy
    } = serializePolicy(rowOf(timeOffPolicies, snapshot), { id: "", name: "", type: "" }, 0);
    return policy;
  },
  open_shift_preferences: (snapshot) => serializePreferenceRecord(rowOf(openShiftPreferences, snapshot)),
};

/** An event's stored data (JSON text) in its form, as the API answers it (the audit log's before and after too). */
export function serializeEventData(form: string, json: string): unknown {
  const stored = JSON.parse(json) as unknown;
  return form === "wire" ? stored : SERIALIZERS[form]!(stored as Record<string, unknown>);
}

/** An event as the feed and webhooks carry it. */
export function serializeEvent(row: EventRow) {
  const data = serializeEventData(row.form, row.data);
  return {
    id: row.id,
    type: row.type as EventType,
    organizationId: row.organizationId,
    occurredAt: iso(row.occurredAt),
    sequence: row.sequence,
    data,
  };
}

export type EventWire = ReturnType<typeof serializeEvent>;
