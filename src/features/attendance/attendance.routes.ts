import { z } from "@hono/zod-openapi";
import { authorize } from "@/auth/authorize";
import { jsonBody, jsonContent, OrganizationParams, problems } from "@/platform/openapi/helpers";
import { defineRoute } from "@/platform/routes/define-route";
import {
  AttendanceException,
  AttendanceExceptionListQuery,
  AttendanceExceptionParams,
  AttendanceExceptionPatch,
  AttendanceSettingsPatch,
  AttendanceSettingsSchema,
} from "./attendance.schemas";

const tags = ["Attendance"];
const settingsPath = "/api/organizations/{organization_id}/attendance-settings";
const exceptionsPath = "/api/organizations/{organization_id}/attendance-exceptions";
const ownOnly = " A staff member without SHIFT_READ sees only their own (another's is 404).";

export const getSettings = defineRoute({
  method: "get",
  path: settingsPath,
  operationId: "getAttendanceSettings",
  flags: { scope: "organization" },
  tags,
  summary: "Retrieve attendance settings",
  description: "The thresholds attendance exceptions are measured with; the defaults until changed.",
  middleware: [authorize("SHIFT_READ")] as const,
  request: { params: OrganizationParams },
  responses: { 200: jsonContent(AttendanceSettingsSchema, "The settings"), ...problems("ORGANIZATION_NOT_FOUND") },
});

export const patchSettings = defineRoute({
  method: "patch",
  path: settingsPath,
  operationId: "updateAttendanceSettings",
  flags: { scope: "organization" },
  tags,
  summary: "Update attendance settings",
  description:
    "Changes only the named settings, from the next punch and the next attendance pass on (exceptions already raised " +
    "stay). `autoClockOutAfterMinutes: null` turns automatic clock-out off. A PATCH that changes nothing records no event.",
  middleware: [authorize("ORGANIZATION_ADMIN")] as const,
  request: { params: OrganizationParams, body: jsonBody(AttendanceSettingsPatch) },
  responses: { 200: jsonContent(AttendanceSettingsSchema, "The settings"), ...problems("ORGANIZATION_NOT_FOUND") },
});

export const list = defineRoute({
  method: "get",
  path: exceptionsPath,
  operationId: "listAttendanceExceptions",
  flags: { scope: "organization", list: true },
  tags,
  summary: "List attendance exceptions",
  description:
    "Exceptions whose business date is in [startDate, endDate] (at most 92 days), by date then id, paged like every " +
    'list: `limit` (1–500, default 100) and `cursor`, with `Link: <…>; rel="next"` while more remain. ' +
    "How each is found: LATE_CLOCK_IN, UNSCHEDULED_SHIFT at clock-in (a clock-in works the published entry " +
    "of that staff member at that location whose span, opened 2 hours before its start, holds it); EARLY_CLOCK_OUT and " +
    "MISSED_MEAL_BREAK (a meal period of the pay rules missed over the workday, else a mandatory break type of the " +
    "location not taken in the shift; nothing is deducted for it) at clock-out, also an automatic one (a mandatory " +
    "break type only); at a location with a working-time pack (…/locations/{locationId}/working-time), every worked " +
    "shift as it closes — a clock-out (phone, kiosk or integration), a manual shift (POST /timesheets), an edit of a " +
    "closed shift's times or breaks (PATCH /timesheets/{id}), the attendance pass's automatic clock-out — also raises REST_TOO_SHORT, " +
    "DAILY_MAXIMUM_EXCEEDED, WEEKLY_MAXIMUM_EXCEEDED (its Monday-to-Sunday week over the pack's weekly maximum: ON and " +
    "FR 48 h), BREAK_TOO_SHORT (breaks shorter than the pack's blocks do not count: ArbZG §4's 15 minutes), " +
    "WEEKLY_AVERAGE_EXCEEDED (the reference weeks ending on the shift's date, unless the worker's opt-out is in force " +
    "where the pack allows one), MONTHLY_OVERTIME_CAP_EXCEEDED (JP art. 36: the month's overtime over 45 h, counted by " +
    "weeks in the month they start, when the shift adds to it; raised over 45 h even under a special clause, whose six " +
    "months over 45 and art. 36(6) limits the working-time report judges) and MINOR_HOURS for that shift, by the location's pack " +
    "setting and law version in effect on its date, in that write's own batch; NO_SHOW and MISSED_CLOCK_OUT by the " +
    "attendance pass every 30 minutes (entries published before they were due, starting in the last 7 days). Each is " +
    `raised once per shift or entry, however often the pass runs.${ownOnly}`,
  middleware: [authorize("SHIFT_READ", { asThemself: true })] as const,
  request: { params: OrganizationParams, query: AttendanceExceptionListQuery },
  responses: { 200: jsonContent(z.array(AttendanceException), "The exceptions"), ...problems("ORGANIZATION_NOT_FOUND") },
});

export const get = defineRoute({
  method: "get",
  path: `${exceptionsPath}/{id}`,
  operationId: "getAttendanceException",
  flags: { scope: "organization" },
  tags,
  summary: "Retrieve an attendance exception",
  description: `One exception.${ownOnly}`,
  middleware: [authorize("SHIFT_READ", { asThemself: true })] as const,
  request: { params: AttendanceExceptionParams },
  responses: {
    200: jsonContent(AttendanceException, "The exception"),
    ...problems("ORGANIZATION_NOT_FOUND", "ATTENDANCE_EXCEPTION_NOT_FOUND"),
  },
});

export const resolve = defineRoute({
  method: "patch",
  path: `${exceptionsPath}/{id}`,
  operationId: "resolveAttendanceException",
  flags: { scope: "organization" },
  tags,
  summary: "Resolve, excuse or reopen an attendance exception",
  description:
    "RESOLVED (handled) or EXCUSED (not held against the staff member; a note must be sent or already stored: else 400 " +
    "naming `note`), recording who and when (`attendance_exception.resolved`); OPEN reopens it, clearing them " +
    "(`attendance_exception.reopened`). The last change stands; the note is kept when none is sent. Nobody changes " +
    "their own exception (403).",
  middleware: [authorize("SHIFT_WRITE")] as const,
  request: { params: AttendanceExceptionParams, body: jsonBody(AttendanceExceptionPatch) },
  responses: {
    200: jsonContent(AttendanceException, "The exception"),
    ...problems("ORGANIZATION_NOT_FOUND", "ATTENDANCE_EXCEPTION_NOT_FOUND"),
  },
});

export type GetSettingsRoute = typeof getSettings;
export type PatchSettingsRoute = typeof patchSettings;
export type ListRoute = typeof list;
export type GetRoute = typeof get;
export type ResolveRoute = typeof resolve;
