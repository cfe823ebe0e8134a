import { EVENT_TYPES, type EventType, type REMOVED_EVENT_TYPES } from "@/data/outbox/outbox";

/** The component each event type's `data` is: the resource as the API answers it (null: described inline). */
const DATA_SCHEMA: Record<EventType, string | null | Record<string, unknown>> = {
  "shift.clocked_in": "Shift",
  "shift.clocked_out": "Shift",
  "shift.break_started": "Shift",
  "shift.break_ended": "Shift",
  "shift.created": "Shift",
  "shift.updated": "Shift",
  "shift.deleted": "Shift",
  "timesheet.day_locked": "LockedDay",
  "timesheet.day_unlocked": "LockedDay",
  "staff_member.created": "StaffMember",
  "staff_member.updated": "StaffMember",
  "staff_member.deleted": "StaffMember",
  "location.created": "Location",
  "location.updated": "Location",
  "location.deleted": "Location",
  "time_off_request.created": "TimeOffRequest",
  "time_off_request.updated": "TimeOffRequest",
  "time_off_request.approved": "TimeOffRequest",
  "time_off_request.declined": "TimeOffRequest",
  "time_off_request.cancelled": "TimeOffRequest",
  "time_off_policy.created": "Policy",
  "time_off_policy.updated": "Policy",
  "time_off_policy.activated": "Policy",
  "time_off_policy.deactivated": "Policy",
  "time_off_policy_type.created": "PolicyType",
  "time_off_settings.updated": "TimeOffSettings",
  "schedule.published": null,
  "schedule_entry.created": "ScheduleEntry",
  "schedule_entry.updated": "ScheduleEntry",
  "schedule_entry.deleted": "ScheduleEntry",
  "open_shift.created": "OpenShift",
  "open_shift.updated": "OpenShift",
  "open_shift.deleted": "OpenShift",
  "open_shift.claimed": "OpenShiftPreference",
  "open_shift.assigned": "OpenShiftPreference",
  "open_shift.retracted": "OpenShiftPreference",
  "open_shift.preference_created": "OpenShiftPreference",
  "open_shift.preference_updated": "OpenShiftPreference",
  "open_shift.preference_removed": "OpenShiftPreference",
  "organization.updated": "Organization",
  "organization.deleted": "Organization",
  "role.created": "Role",
  "role.updated": "Role",
  "role.deleted": "Role",
  "access_role.created": "AccessRole",
  "access_role.updated": "AccessRole",
  "access_role.deleted": "AccessRole",
  "break_type.created": "BreakType",
  "break_type.updated": "BreakType",
  "break_type.deleted": "BreakType",
  "shift_note.created": "ShiftNote",
  "webhook.created": "Webhook",
  "webhook.updated": "Webhook",
  "webhook.deleted": "Webhook",
  "webhook.test": "Webhook",
  "pay_rule_set.created": "PayRuleSet",
  "pay_rule_set.updated": "PayRuleSet",
  "pay_rule_set.deleted": "PayRuleSet",
  "pay_period_settings.updated": "PayPeriodSettings",
  "payroll_settings.updated": "PayrollSettings",
  "timesheet.approved": "TimesheetApproval",
  "timesheet.unapproved": "TimesheetApproval",
  "pay_period.closed": "PayPeriod",
  "pay_period.reopened": "PayPeriod",
  "availability.created": "Availability",
  "availability.updated": "Availability",
  "availability.deleted": "Availability",
  "shift_request.created": "ShiftRequest",
  "shift_request.accepted": "ShiftRequest",
  "shift_request.approved": "ShiftRequest",
  "shift_request.declined": "ShiftRequest",
  "shift_request.cancelled": "ShiftRequest",
  "attendance_settings.updated": "AttendanceSettings",
  "attendance_exception.raised": "AttendanceException",
  "attendance_exception.resolved": "AttendanceException",
  "attendance_exception.reopened": "AttendanceException",
  "export.created": "Export",
  "export.succeeded": "Export",
  "export.failed": "Export",
  "job.created": "Job",
  "job.succeeded": "Job",
  "job.failed": "Job",
  "demand.updated": "DemandUpdate",
  "labor_targets.updated": "LaborTargets",
  "wage_rate.created": "WageRate",
  "wage_rate.updated": "WageRate",
  "wage_rate.deleted": "WageRate",
  "cost_code.created": "CostCode",
  "cost_code.updated": "CostCode",
  "cost_code.deleted": "CostCode",
  "cost_code.assignments_updated": "CostCodeAssignments",
  "location.fair_workweek_updated": "LocationFairWorkweek",
  "location.working_time_updated": "LocationWorkingTime",
  "location.holidays_updated": "HolidayOverrides",
  "staff_member.good_faith_estimate_updated": "GoodFaithEstimate",
  "staff_member.meal_waivers_updated": "MealWaiverEvent",
  "custom_field.created": "CustomField",
  "custom_field.updated": "CustomField",
  "custom_field.deleted": "CustomField",
  "device.created": "Device",
  "device.enrolled": "Device",
  "device.rotated": "Device",
  "device.revoked": "Device",
  "staff_member.pin_updated": "StaffMemberPinChange",
  "staff_member.pin_unlocked": "StaffMemberPinUnlock",
  "photo.created": "KioskPhoto",
  "schedule_change.recorded": "ScheduleChange",
  "consent.created": "Consent",
  "test_clock.advanced": {
    type: "object",
    description: "A sandbox's test clock moved forward (POST …/test-clock/advance): its time was `from`, is now `to`.",
    properties: {
      organizationId: { type: "string" },
      from: { type: "string", format: "date-time" },
      to: { type: "string", format: "date-time" },
    },
    required: ["organizationId", "from", "to"],
  },
  "webhook.disabled": "Webhook",
  "organization.moved": "Organization",
  "time_off_policy.accrued": {
    type: "object",
    description:
      "The time-off accrual pass wrote ledger entries of a policy's balances (period accruals, per-hour accruals and " +
      "their corrections, year-end carryover forfeits): how many and their hours in total, net. One event per policy " +
      "per batch of the pass that wrote any (a pass or a large organization's accrual job may record several); a " +
      "pass that finds nothing due records none. Read the entries through GET …/policies/{policy_id}/worker-policies/{workerId}/ledger.",
    properties: {
      id: { type: "string", description: "The policy's id." },
      entries: { type: "integer", minimum: 1, description: "Ledger entries written." },
      hours: { type: "number", description: "Their hours in total (a forfeit or a shortened shift's correction counts negative)." },
    },
    required: ["id", "entries", "hours"],
  },
};

/** What an event type's entry says besides where it is recorded, for the types whose writer is not a request. */
const NOTES: Partial<Record<EventType, string>> = {
  "organization.moved":
    " Recorded by the platform's operator moving the organization between databases (its audit entry's actor " +
    "OPERATOR), when the move commits: ids, data and API stay the same; `dataRegion` is the region it is in now.",
  "time_off_policy.accrued": " Recorded by the Cron's time-off accrual pass (its audit entry's actor SYSTEM `accrual-pass`).",
};

const PUBLISHED = {
  type: "object",
  description:
    "The published range of a location and the instant; read what was published through GET …/schedules. With the " +
    "Fair Workweek changes the publish recorded (each entry it made public inside its pack's notice window, ADDED): " +
    "their number and premiums in total, hours at the regular rate and flat amounts apart (zeros without a pack); " +
    "read them through GET /organizations/{organizationId}/schedule-changes (locationId, the range's dates).",
  properties: {
    locationId: { type: "string" },
    startDate: { type: "string" },
    endDate: { type: "string" },
    publishedAt: { type: "string", format: "date-time" },
    changes: { type: "integer", minimum: 0, description: "Changes the publish recorded in the change log." },
    premiumHours: { type: "number", minimum: 0, description: "Their premium hours, paid at each workweek's regular rate." },
    premiumAmount: { type: "number", minimum: 0, description: "Their flat premium amounts (NYC's dollars), in the currency." },
  },
  required: ["locationId", "startDate", "endDate", "publishedAt", "changes", "premiumHours", "premiumAmount"],
};

/**
 * Event types no longer recorded, each in the document as a deprecated webhook saying since when and what replaces
 * it: events recorded under it before stay in the feed as they were (their data as described here).
 */
const REMOVED: Record<(typeof REMOVED_EVENT_TYPES)[number], { removedOn: string; replacedBy: string; data: Record<string, unknown> }> = {
  "schedule_changes.recorded": {
    removedOn: "2026-12-06",
    replacedBy:
      "`schedule.published`, whose data now carries the publish's changes (changes, premiumHours, premiumAmount); " +
      "endpoints subscribed to it were moved to schedule.published",
    data: {
      type: "object",
      description: "A publish's Fair Workweek changes in total (recorded before 2026-12-06).",
      properties: {
        locationId: { type: "string" },
        startDate: { type: "string" },
        endDate: { type: "string" },
        publishedAt: { type: "string", format: "date-time" },
        changes: { type: "integer" },
        premiumHours: { type: "number" },
        premiumAmount: { type: "number" },
      },
      required: ["locationId", "startDate", "endDate", "publishedAt", "changes", "premiumHours", "premiumAmount"],
    },
  },
};

/**
 * The document's top-level `webhooks`: one entry per event type, the envelope every delivery (and the feed) carries
 * with that type's `data`, so integrators generate a type per event. Signed per Standard Webhooks (README).
 */
export function webhooksOfDocument(): Record<string, unknown> {
  const operation = (type: string, description: string, data: unknown, deprecated: boolean) => ({
    post: {
      operationId: `on_${type.replaceAll(".", "_")}`,
      summary: `The ${type} event`,
      description,
      ...(deprecated ? { deprecated: true } : {}),
      tags: ["Events"],
      requestBody: {
        required: true,
        content: {
          "application/json": {
            schema: {
              allOf: [{ $ref: "#/components/schemas/Event" }, { type: "object", properties: { type: { const: type }, data } }],
            },
          },
        },
      },
      responses: {
        "200": { description: "Received: any 2xx stops the retries." },
        "400": { description: "Refused: the delivery is retried with backoff, as for any status other than 2xx." },
      },
    },
  });
  const recorded = EVENT_TYPES.map((type) => {
    const data = DATA_SCHEMA[type];
    const description =
      type === "webhook.test"
        ? "Sent only by POST …/webhooks/{id}/test, with sequence 0; never in the feed."
        : `Recorded in the change's own batch; the feed (GET …/events) carries the same envelope.${NOTES[type] ?? ""}`;
    return [
      type,
      operation(type, description, typeof data === "string" ? { $ref: `#/components/schemas/${data}` } : (data ?? PUBLISHED), false),
    ];
  });
  const removed = Object.entries(REMOVED).map(([type, { removedOn, replacedBy, data }]) => [
    type,
    operation(
      type,
      `Removed on ${removedOn}: no longer recorded, replaced by ${replacedBy}. Events recorded under it ` +
        "before stay in the feed (GET …/events) with this envelope; a webhook cannot subscribe to it. API versions " +
        `before ${removedOn} (a partner pinned earlier, a \`Shiftline-Version\` header, an endpoint's \`apiVersion\`) ` +
        "still receive it, in the feed and in deliveries, right after each schedule.published whose publish recorded " +
        "changes (its id that event's id + `.changes`, the same sequence), and that schedule.published without them.",
      data,
      true,
    ),
  ]);
  return Object.fromEntries([...recorded, ...removed]);
}
