import { authorize } from "@/auth/authorize";
import { jsonBody, jsonContent, problems, problemWith } from "@/platform/openapi/helpers";
import { defineRoute } from "@/platform/routes/define-route";
import {
  BreakStartBody,
  ClockInBody,
  ClockOutBody,
  GeofenceProblem,
  PunchBody,
  ShiftState,
  StaffLocationParams,
  SwitchBody,
} from "@/wire/punch.schemas";
import { Shift } from "@/wire/shift.schemas";

const tags = ["Time tracking"];
const base = "/api/organizations/{organization_id}/staffmembers/{id}/locations/{location_id}";
const selfOr = (permission: "SHIFT_READ" | "SHIFT_WRITE") => authorize(permission, { self: "id" });
const punchNotes =
  " Every event records its position, accuracy, distance, geofence verdict and trust flags (`events`); flags " +
  "never block. A location fence (radius > 0 and coordinates) needs `latitude` and `longitude` (400 naming them); " +
  "a position certainly outside in `block` mode is 422 `OUTSIDE_GEOFENCE`. A day locked for the shift's business " +
  "date is 409 `DAY_LOCKED`; a shift in a pay period where the staff member's timesheet is approved is 409 " +
  "`TIMESHEET_APPROVED`, and one on a date a closed pay period froze (every date of every workweek overlapping it, " +
  "in any period) 409 `PAY_PERIOD_CLOSED` naming `periodId` — even when the lock, approval or close lands while " +
  "the punch is being written. A shift changed by another " +
  "request meanwhile is 409 `SHIFT_CHANGED`: read it again and retry. Send an `Idempotency-Key` so retries from a " +
  "phone are applied once. Every event records its `source` and `deviceId` (events) and the shift its " +
  "`clockInSource`/`clockOutSource`: MOBILE with the staff member's own token, API with an organization-level token " +
  "(an integrator punching for them), device null; kiosks punch through POST /api/kiosk/punches (KIOSK).";

const CUSTOM_FIELDS_AT_PUNCH =
  " `customFields` (optional) sets values of the organization's custom fields, keyed by field id (null removes " +
  "one): each must name an active field (an unknown or inactive id is 400) and fit it — LIST: one of its options; " +
  "TEXT: 1 to 500 characters matching its pattern as a whole — else 400 VALIDATION_FAILED naming " +
  "`customFields.<fieldId>`. The shift answers its values as `customFields`. Fields changed while the punch is " +
  "written: 409 `CUSTOM_FIELDS_CHANGED` (nothing written; retry).";

/** The codes every punch may answer, besides its 422. */
const PUNCH_CODES = [
  "POSITION_REQUIRED",
  "BREAK_TYPE_UNAVAILABLE",
  "STAFF_MEMBER_INACTIVE",
  "NOT_ASSIGNED_TO_LOCATION",
  "OCCURRED_AT_IN_FUTURE",
  "OCCURRED_AT_TOO_OLD",
  "OCCURRED_AT_BEFORE_PREVIOUS_EVENT",
  "STAFF_MEMBER_NOT_FOUND",
  "LOCATION_NOT_FOUND",
  "ROLE_NOT_FOUND",
  "SHIFT_ALREADY_OPEN",
  "NO_OPEN_SHIFT",
  "BREAK_ALREADY_OPEN",
  "NO_OPEN_BREAK",
  "DAY_LOCKED",
  "TIMESHEET_APPROVED",
  "PAY_PERIOD_CLOSED",
  "SHIFT_OVERLAP",
  "SHIFT_CHANGED",
  "CUSTOM_FIELDS_CHANGED",
] as const;

/** The errors of a punch: 422 is OUTSIDE_GEOFENCE with its distances, or IDEMPOTENCY_KEY_REUSED. */
const punchProblems = {
  ...problems(...PUNCH_CODES),
  422: problemWith(422, GeofenceProblem, "Unprocessable Entity: the position is outside the fence, with the distances", [
    "OUTSIDE_GEOFENCE",
  ]),
};

/** Punches that open a shift, which may name a cost code. */
const openingPunchProblems = {
  ...problems(...PUNCH_CODES, "COST_CODE_NOT_FOUND"),
  422: problemWith(
    422,
    GeofenceProblem,
    "Unprocessable Entity: the position is outside the fence (with the distances), or the cost code is not the worker's",
    ["OUTSIDE_GEOFENCE", "COST_CODE_NOT_ASSIGNED"],
  ),
};

export const shiftState = defineRoute({
  method: "get",
  path: `${base}/shift-state`,
  operationId: "getShiftState",
  flags: { scope: "organization" },
  tags,
  summary: "Retrieve staff member shift state",
  description: "The staff member's open shift (at any location) or null, minutes worked today, and the breaks they may start here.",
  middleware: selfOr("SHIFT_READ"),
  request: { params: StaffLocationParams },
  responses: { 200: jsonContent(ShiftState, "The shift state"), ...problems("STAFF_MEMBER_NOT_FOUND", "LOCATION_NOT_FOUND") },
});

export const clockIn = defineRoute({
  method: "post",
  path: `${base}/clock-in`,
  operationId: "clockIn",
  flags: { scope: "organization", idempotency: "in-batches", punch: true },
  tags,
  summary: "Clock in a staff member",
  description:
    "Opens a shift. The staff member must be active and assigned to the location (400 `NOT_ASSIGNED_TO_LOCATION`, " +
    "`STAFF_MEMBER_INACTIVE`); the role must be the organization's (404 `ROLE_NOT_FOUND`). The shift's hourlyWage " +
    "is the role's, else the staff member's; null for a salaried staff member (not paid by the hour, as their pay " +
    "lines' rate is null). One open shift per staff member: 409 `SHIFT_ALREADY_OPEN`; an offline " +
    "clock-in (`occurredAt`) inside another shift of the staff member, or before one (the open shift runs on), is " +
    "409 `SHIFT_OVERLAP`, as for manual shifts. `costCodeId` (optional) charges the shift to a cost code: a live " +
    "code of the organization (else 404 `COST_CODE_NOT_FOUND`), active and assigned to the staff member (or to " +
    "everyone), checked in the write's own batch, else 422 `COST_CODE_NOT_ASSIGNED`; the shift answers it as " +
    "`costCodeId`." +
    CUSTOM_FIELDS_AT_PUNCH +
    " Clock-in may leave required fields empty." +
    punchNotes,
  middleware: selfOr("SHIFT_WRITE"),
  request: { params: StaffLocationParams, body: jsonBody(ClockInBody) },
  responses: { 200: jsonContent(Shift, "The new open shift"), ...openingPunchProblems },
});

export const clockOut = defineRoute({
  method: "post",
  path: `${base}/clock-out`,
  operationId: "clockOut",
  flags: { scope: "organization", idempotency: "in-batches", punch: true },
  tags,
  summary: "Clock out a staff member",
  description:
    "Closes the staff member's open shift at this location (409 `NO_OPEN_SHIFT` without one), ending an open break " +
    "at the same instant first. A break not taken is never deducted: every minute between the punches outside a break " +
    "taken is payable. A mandatory break type not taken in a shift longer than its frequencyMinutes, or a meal period " +
    "of the pay rules missed, raises the attendance exception MISSED_MEAL_BREAK in the clock-out's own batch; at a location with a working-time pack, also REST_TOO_SHORT, DAILY_MAXIMUM_EXCEEDED, WEEKLY_MAXIMUM_EXCEEDED, BREAK_TOO_SHORT, WEEKLY_AVERAGE_EXCEEDED, MONTHLY_OVERTIME_CAP_EXCEEDED and MINOR_HOURS (GET …/attendance-exceptions)." +
    CUSTOM_FIELDS_AT_PUNCH +
    " At clock-out every active required field must have a value (given now or at clock-in), else 400 " +
    "VALIDATION_FAILED naming each missing `customFields.<fieldId>`; nothing is written." +
    punchNotes,
  middleware: selfOr("SHIFT_WRITE"),
  request: { params: StaffLocationParams, body: jsonBody(ClockOutBody) },
  responses: { 200: jsonContent(Shift, "The closed shift"), ...punchProblems },
});

export const breakStart = defineRoute({
  method: "post",
  path: `${base}/break-start`,
  operationId: "startBreak",
  flags: { scope: "organization", idempotency: "in-batches", punch: true },
  tags,
  summary: "Start a break",
  description:
    "Starts a break of an enabled break type of this location (400 `BREAK_TYPE_UNAVAILABLE` otherwise) on the open " +
    "shift (409 `NO_OPEN_SHIFT`); one open break at a time (409 `BREAK_ALREADY_OPEN`)." +
    punchNotes,
  middleware: selfOr("SHIFT_WRITE"),
  request: { params: StaffLocationParams, body: jsonBody(BreakStartBody) },
  responses: { 200: jsonContent(Shift, "The shift with the break started"), ...punchProblems },
});

export const breakEnd = defineRoute({
  method: "post",
  path: `${base}/break-end`,
  operationId: "endBreak",
  flags: { scope: "organization", idempotency: "in-batches", punch: true },
  tags,
  summary: "End a break",
  description: `Ends the open break of the open shift (409 \`NO_OPEN_BREAK\` without one).${punchNotes}`,
  middleware: selfOr("SHIFT_WRITE"),
  request: { params: StaffLocationParams, body: jsonBody(PunchBody) },
  responses: { 200: jsonContent(Shift, "The shift with the break ended"), ...punchProblems },
});

export const switchShift = defineRoute({
  method: "post",
  path: `${base}/switch`,
  operationId: "switchShift",
  flags: { scope: "organization", idempotency: "in-batches", punch: true },
  tags,
  summary: "Switch a staff member to another cost code",
  description:
    "Ends the staff member's open shift at this location and opens the next one at the same instant, charged to " +
    "`costCodeId` (a live code of the organization, else 404 `COST_CODE_NOT_FOUND`; active and assigned to the " +
    "staff member, else 422 `COST_CODE_NOT_ASSIGNED`), in the " +
    "role `roleId` (omitted: the ending shift's role), in one batch: both happen or neither. Answers the new open " +
    "shift and records `shift.clocked_out` (the ended shift) and `shift.clocked_in` (the new one), as a clock-out " +
    "followed by a clock-in would. Without an open shift here: 409 `NO_OPEN_SHIFT`; with a break open: 409 " +
    "`BREAK_ALREADY_OPEN` (end the break first). Of two switches of one shift at once, one ends it " +
    "and the other is 409 `SHIFT_CHANGED` (so is a switch whose shift was clocked out meanwhile): read the shift state again. " +
    "The position is judged as for both a clock-out and a clock-in. " +
    "A switch raises no attendance exceptions: the staff member stays at work. The ended shift keeps its custom " +
    "field values and is not checked for required ones (the next shift starts empty, as a clock-in may)." +
    punchNotes,
  middleware: selfOr("SHIFT_WRITE"),
  request: { params: StaffLocationParams, body: jsonBody(SwitchBody) },
  responses: { 200: jsonContent(Shift, "The new open shift"), ...openingPunchProblems },
});

export type SwitchRoute = typeof switchShift;
export type ShiftStateRoute = typeof shiftState;
export type ClockInRoute = typeof clockIn;
export type ClockOutRoute = typeof clockOut;
export type BreakStartRoute = typeof breakStart;
export type BreakEndRoute = typeof breakEnd;
