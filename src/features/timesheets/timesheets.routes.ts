import { z } from "@hono/zod-openapi";
import { createMiddleware } from "hono/factory";
import { authorize } from "@/auth/authorize";
import { conditionalGet } from "@/platform/http/conditional";
import type { AppBindings } from "@/platform/http/env";
import {
  IfMatchHeaders,
  IfNoneMatchHeaders,
  jsonBody,
  jsonContent,
  notModified,
  OrganizationRecordParams,
  problems,
  withETag,
} from "@/platform/openapi/helpers";
import { defineRoute } from "@/platform/routes/define-route";
import { Shift } from "@/wire/shift.schemas";
import { ExportRecord } from "@/wire/timesheet-export.schemas";
import { ShiftHistoryQuery, ShiftVersion } from "./shift-history.schemas";
import { EmployeeReport, EmployeeReportQuery, ExportQuery, Report, ReportQuery } from "./timesheet-reports.schemas";
import {
  DayAtLocationQuery,
  DeletedShifts,
  LocationTimesheetQuery,
  LockedDay,
  LockedDayBody,
  ManualShiftCreate,
  OrganizationQuery,
  ShiftParams,
  ShiftPatch,
  ShiftPhoto,
  TimesheetListing,
  TimesheetQuery,
} from "./timesheets.schemas";

const tags = ["Timesheets"];
const read = authorize("SHIFT_READ", { organizationOfCaller: true, asThemself: true });
const write = authorize("SHIFT_WRITE", { organizationOfCaller: true });
/** Locking guards approved payroll from SHIFT_WRITE holders, so only managers (LOCATION_ADMIN) lock and reopen. */
const lock = authorize("LOCATION_ADMIN", { organizationOfCaller: true });
const conditional = createMiddleware<AppBindings>((c, next) => conditionalGet(c, next));
const scopeNote =
  " The organization is the token's; a partner-level token names it with `organizationId`. Needs SHIFT_READ, " +
  "except that a staff member without it sees only their own shifts.";
const salariedNote =
  " A salaried staff member's shift (wageType salary when it was recorded) is not paid by the hour: its " +
  "hourlyWage is null, as their pay lines' rate is, and it adds no amount.";
const sourceNote =
  " Each shift says where its clock-in and clock-out came from (`clockInSource`, `clockOutSource`: MOBILE, KIOSK, " +
  "MANUAL, API, AUTO, with the kiosk's `clockInDeviceId`/`clockOutDeviceId`); each break's is on its events " +
  "(GET /timesheets/{id}). `source=KIOSK,MOBILE` keeps the shifts whose clock-in or clock-out came from one of them " +
  "(an unknown source: 400 naming `source`).";
const editorNote =
  " The times written are the editor's: `clockInSource` (and `clockOutSource`, for an end written) become MANUAL " +
  "with a staff member's token (a manager) and API with an organization-level token (an integrator), device null.";
const listingNote =
  "Shifts whose business date (the local date their start fell on at their location) is in the range; a " +
  "full ISO timestamp compares the start instant instead. Pages by business date then id with `limit`/`cursor` " +
  'and `Link: rel="next"`; `totals` (minutes, and amount = payable hours × hourlyWage rounded per shift to the minor units of the currency of the organization: cents, whole yen, thousandths of a dinar) and ' +
  "`lockedDays` cover the whole filtered range, whatever the page, and never count deleted shifts. Open shifts " +
  "count 0 until clocked out. A start after the end or a range over 366 days is 400." +
  salariedNote +
  sourceNote;
const lockedNote =
  " A shift whose business date is locked at its location is 409 `DAY_LOCKED`; one in a pay period where the staff " +
  "member's timesheet is approved is 409 `TIMESHEET_APPROVED`; one dated (before or after an edit) on a date a " +
  "closed pay period froze — every date of every workweek overlapping it, in any period — is 409 " +
  "`PAY_PERIOD_CLOSED` naming `periodId`.";

export const list = defineRoute({
  method: "get",
  path: "/api/timesheets",
  operationId: "listTimesheets",
  flags: { scope: "caller", list: true },
  tags,
  summary: "Retrieve all shifts",
  description: listingNote + scopeNote,
  middleware: [read] as const,
  request: { query: TimesheetQuery },
  responses: {
    200: jsonContent(TimesheetListing, "A page of shifts, the locked days and the totals"),
    ...problems("ORGANIZATION_SCOPE_REQUIRED", "ORGANIZATION_NOT_FOUND"),
  },
});

export const listForLocation = defineRoute({
  method: "get",
  path: "/api/organizations/{organization_id}/locations/{id}/timesheets",
  operationId: "listLocationTimesheets",
  flags: { scope: "organization", list: true },
  tags,
  summary: "Retrieve timesheets for a specific location",
  description: `The timesheet listing of one location (404 for a location not in the organization). ${listingNote}`,
  middleware: [read] as const,
  request: { params: OrganizationRecordParams, query: LocationTimesheetQuery },
  responses: { 200: jsonContent(TimesheetListing, "A page of the location's shifts"), ...problems("LOCATION_NOT_FOUND") },
});

export const exportShifts = defineRoute({
  method: "get",
  path: "/api/timesheets/export",
  operationId: "exportTimesheets",
  flags: { scope: "caller" },
  tags,
  summary: "Export shifts",
  description:
    "Every shift of the filtered range as an attachment, streamed page by page: CSV (RFC 4180, CRLF, header row; " +
    "text fields starting with = + - @ get a leading ' so spreadsheets do not run them) or a JSON array. Local " +
    "times carry no zone suffix; amount = payable hours × hourlyWage, rounded half away from zero to the minor units of the organization's currency (cents; whole yen; a dinar's thousandths), written in the CSV with exactly those decimals. Not paged: an export is " +
    "one file of a range of at most 366 days, streamed as it is read, for small ranges: for a long range, a large " +
    "organization or a file to keep, create an export job (`POST /api/organizations/{organization_id}/exports`, kind " +
    "TIMESHEETS), which writes the same file over any range in the background. A salaried staff member's shift has " +
    "hourlyWage and amount null (empty in the CSV): not paid by the hour, as their pay lines say. Each record ends " +
    "with clockInSource, clockInDeviceId, clockOutSource, clockOutDeviceId, then locked; `source=` filters as the listing's." +
    scopeNote,
  middleware: [read] as const,
  request: { query: ExportQuery },
  responses: {
    200: {
      description: "The export (Content-Disposition: attachment)",
      content: { "text/csv": { schema: z.string() }, "application/json": { schema: z.array(ExportRecord) } },
    },
    ...problems("ORGANIZATION_SCOPE_REQUIRED", "ORGANIZATION_NOT_FOUND"),
  },
});

export const reportDays = defineRoute({
  method: "get",
  path: "/api/timesheets/reports",
  operationId: "getTimesheetReport",
  flags: { scope: "caller" },
  tags,
  summary: "Generate shift reports",
  description:
    "Per day, staff member and location: minutes, unpaid breaks, hours worked and amount (each shift's payable hours × hourlyWage rounded to the minor units of the organization's currency, then added: totals are the sum of the days), with the totals of the " +
    'whole range. `page`/`limit` page the days (and a `Link: rel="next"`).' +
    scopeNote,
  middleware: [read] as const,
  request: { query: ReportQuery },
  responses: { 200: jsonContent(Report, "The report"), ...problems("ORGANIZATION_SCOPE_REQUIRED", "ORGANIZATION_NOT_FOUND") },
});

export const reportEmployees = defineRoute({
  method: "get",
  path: "/api/timesheets/reports/employees",
  operationId: "getTimesheetEmployeeReport",
  flags: { scope: "caller", list: true },
  tags,
  summary: "Generate per-employee shift reports",
  description: `Totals per staff member over the range, by staff member id, paged with \`limit\`/\`cursor\`.${scopeNote}`,
  middleware: [read] as const,
  request: { query: EmployeeReportQuery },
  responses: {
    200: jsonContent(z.array(EmployeeReport), "One row per staff member"),
    ...problems("ORGANIZATION_SCOPE_REQUIRED", "ORGANIZATION_NOT_FOUND"),
  },
});

export const lockDay = defineRoute({
  method: "post",
  path: "/api/timesheets/locked-days",
  operationId: "lockTimesheetDay",
  flags: { scope: "caller", idempotency: "middleware" },
  tags,
  summary: "Lock a day",
  description:
    "Locks a business date at a location: its shifts can no longer be created, changed, clocked or deleted. " +
    "Idempotent (locking a locked day answers it unchanged). Needs LOCATION_ADMIN.",
  middleware: [lock] as const,
  request: { query: OrganizationQuery, body: jsonBody(LockedDayBody) },
  responses: { 200: jsonContent(LockedDay, "The locked day"), ...problems("ORGANIZATION_SCOPE_REQUIRED", "ORGANIZATION_NOT_FOUND") },
});

export const unlockDay = defineRoute({
  method: "delete",
  path: "/api/timesheets/locked-days",
  operationId: "unlockTimesheetDay",
  flags: { scope: "caller" },
  tags,
  summary: "Reopen a locked day",
  description: "Removes the lock (idempotent: reopening an open day answers it as open). Needs LOCATION_ADMIN.",
  middleware: [lock] as const,
  request: { query: DayAtLocationQuery },
  responses: { 200: jsonContent(LockedDay, "The reopened day"), ...problems("ORGANIZATION_SCOPE_REQUIRED", "ORGANIZATION_NOT_FOUND") },
});

export const getOne = defineRoute({
  method: "get",
  path: "/api/timesheets/{id}",
  operationId: "getTimesheetShift",
  flags: { scope: "caller" },
  tags,
  summary: "Retrieve a specific shift",
  description:
    "The shift with its breaks and clock events. Its every edit (who, when, from where, the shift before and after) " +
    "is in the audit log: GET /api/organizations/{organization_id}/audit-log?resourceType=shift&resourceId=<id>; a " +
    `worker's shifts' with staffMemberId=<id>.${scopeNote}`,
  middleware: [read, conditional] as const,
  request: { params: ShiftParams, query: OrganizationQuery, headers: IfNoneMatchHeaders },
  responses: {
    200: withETag(jsonContent(Shift, "The shift")),
    ...notModified,
    ...problems("ORGANIZATION_SCOPE_REQUIRED", "ORGANIZATION_NOT_FOUND", "SHIFT_NOT_FOUND"),
  },
});

export const create = defineRoute({
  method: "post",
  path: "/api/timesheets",
  operationId: "createTimesheetShift",
  flags: { scope: "caller", idempotency: "middleware" },
  tags,
  summary: "Create a new shift",
  description:
    "A closed shift entered by hand (`manualEntry: true`). At a location with a working-time pack it is judged as a " +
    "clock-out is, in the same batch: the attendance exceptions of the pack's rules it breaks (REST_TOO_SHORT, " +
    "DAILY_MAXIMUM_EXCEEDED, WEEKLY_MAXIMUM_EXCEEDED, BREAK_TOO_SHORT, WEEKLY_AVERAGE_EXCEEDED, " +
    "MONTHLY_OVERTIME_CAP_EXCEEDED, MINOR_HOURS: GET …/attendance-exceptions). Times are local wall-clock times written with Z; with " +
    "`utcOffset` they read as utc = local − utcOffset, without it each is read in the location's zone at that " +
    "moment (the first of a repeated fall-back hour), so 22:00–06:00 across a fall-back night is 540 minutes; the " +
    "shift keeps the start's offset, as clocked shifts do. Totals come from the same computation as clock-out: only " +
    "breaks taken are deducted, never a mandatory one not taken (an automatic deduction recorded before is dropped). Unknown employee, location, role or break type: 400 naming it. End not after start, " +
    "or over 24 h: 400. An overlap with another shift of the staff member: 409 `SHIFT_OVERLAP`. A salaried staff " +
    "member's shift reads hourlyWage null and takes none (400 naming `hourlyWage`). `costCodeId` (optional) charges " +
    "the shift to a cost code: a live code of the organization (else 400 naming costCodeId), active and assigned " +
    "to the staff member (or to everyone), checked in the write's own batch, else 422 `COST_CODE_NOT_ASSIGNED`. " +
    "`customFields` (optional) sets values of the organization's custom fields, keyed by field id: each must name an " +
    "active field (an unknown or inactive id is 400) and fit it (LIST: one of its options; TEXT: 1 to 500 " +
    "characters matching its pattern as a whole), else 400 VALIDATION_FAILED naming `customFields.<fieldId>`; a " +
    "manager may leave required fields empty (they are enforced at clock-out). Fields changed while the shift is " +
    "written: 409 `CUSTOM_FIELDS_CHANGED` (nothing written; retry)." +
    lockedNote +
    editorNote +
    " Needs SHIFT_WRITE; every change is audited.",
  middleware: [write] as const,
  request: { query: OrganizationQuery, body: jsonBody(ManualShiftCreate) },
  responses: {
    201: withETag(jsonContent(Shift, "The created shift")),
    ...problems(
      "ORGANIZATION_SCOPE_REQUIRED",
      "ORGANIZATION_NOT_FOUND",
      "SHIFT_OVERLAP",
      "DAY_LOCKED",
      "TIMESHEET_APPROVED",
      "PAY_PERIOD_CLOSED",
      "COST_CODE_NOT_ASSIGNED",
      "CUSTOM_FIELDS_CHANGED",
    ),
  },
});

export const patch = defineRoute({
  method: "patch",
  path: "/api/timesheets/{id}",
  operationId: "updateTimesheetShift",
  flags: { scope: "caller" },
  tags,
  summary: "Update a specific shift",
  description:
    "Changes times, role, wage or breaks. Times read with the body's `utcOffset`, else the shift's own (as the wire " +
    "shows them). A closed shift's breaks and totals are recomputed as at clock-out; `breaks` replaces them all " +
    "and needs a closed shift; `endTime` closes an open one. An edit of a closed shift's times, breaks or utcOffset is judged by " +
    "the location's working-time pack as a clock-out is, raising in its batch the exceptions it breaks that the shift " +
    "has not raised yet (each type once per shift). A new role brings its wage unless `hourlyWage` is " +
    "given, and re-reads whether the staff member is salaried; a salaried staff member's shift (hourlyWage null) " +
    "takes no `hourlyWage` (400 naming it). A new startTime or endTime is the editor's (its source: see create a shift). 409 `SHIFT_OVERLAP`, `SHIFT_CHANGED` (edited concurrently: read and retry). " +
    "`costCodeId` names a cost code to charge (a live code of the organization, else 400 naming costCodeId; active " +
    "and assigned to the staff member, checked in the write's batch, else 422 `COST_CODE_NOT_ASSIGNED`), null " +
    "removes the shift's code, omitted keeps it. `customFields` changes only the values it names: a value sets a " +
    "field (an active field it fits, as for manual shifts, else 400 VALIDATION_FAILED naming " +
    "`customFields.<fieldId>`), null removes it; the other values, those of inactive fields included, stay. Fields " +
    "changed while the shift is written: 409 `CUSTOM_FIELDS_CHANGED`." +
    lockedNote +
    " Needs SHIFT_WRITE.",
  middleware: [write] as const,
  request: { params: ShiftParams, query: OrganizationQuery, body: jsonBody(ShiftPatch), headers: IfMatchHeaders },
  responses: {
    200: withETag(jsonContent(Shift, "The updated shift")),
    ...problems(
      "ORGANIZATION_SCOPE_REQUIRED",
      "ORGANIZATION_NOT_FOUND",
      "SHIFT_NOT_FOUND",
      "SHIFT_OVERLAP",
      "DAY_LOCKED",
      "TIMESHEET_APPROVED",
      "PAY_PERIOD_CLOSED",
      "SHIFT_CHANGED",
      "PRECONDITION_FAILED",
      "COST_CODE_NOT_ASSIGNED",
      "CUSTOM_FIELDS_CHANGED",
    ),
  },
});

export const remove = defineRoute({
  method: "delete",
  path: "/api/timesheets/{id}",
  operationId: "deleteTimesheetShift",
  flags: { scope: "caller" },
  tags,
  summary: "Delete a specific shift",
  description: `Soft delete: the shift leaves listings and totals; the audit keeps it.${lockedNote} The record itself is never purged by the API: a location's working-time pack sets how long it must be kept (retentionYears: Spain 4 years, Estatuto de los Trabajadores art. 34.9; Germany 2, ArbZG §16(2)), and a delete inside it is this soft delete. Needs SHIFT_WRITE.`,
  middleware: [write] as const,
  request: { params: ShiftParams, query: OrganizationQuery, headers: IfMatchHeaders },
  responses: {
    200: withETag(jsonContent(Shift, "The deleted shift")),
    ...problems(
      "ORGANIZATION_SCOPE_REQUIRED",
      "ORGANIZATION_NOT_FOUND",
      "SHIFT_NOT_FOUND",
      "DAY_LOCKED",
      "TIMESHEET_APPROVED",
      "PAY_PERIOD_CLOSED",
      "SHIFT_CHANGED",
      "PRECONDITION_FAILED",
    ),
  },
});

export const removeDay = defineRoute({
  method: "delete",
  path: "/api/timesheets",
  operationId: "deleteTimesheetDay",
  flags: { scope: "caller" },
  tags,
  summary: "Delete all shifts on a specific date",
  description:
    "Soft-deletes every shift of that business date at the location in one atomic write and answers how many. " +
    "Unknown location: 400." +
    lockedNote +
    " Needs SHIFT_WRITE.",
  middleware: [write] as const,
  request: { query: DayAtLocationQuery },
  responses: {
    200: jsonContent(DeletedShifts, "How many shifts were deleted"),
    ...problems(
      "ORGANIZATION_SCOPE_REQUIRED",
      "ORGANIZATION_NOT_FOUND",
      "DAY_LOCKED",
      "TIMESHEET_APPROVED",
      "PAY_PERIOD_CLOSED",
      "SHIFT_CHANGED",
    ),
  },
});

export type ListRoute = typeof list;
export type ListForLocationRoute = typeof listForLocation;
export type ExportRoute = typeof exportShifts;
export type ReportDaysRoute = typeof reportDays;
export type ReportEmployeesRoute = typeof reportEmployees;
export type LockDayRoute = typeof lockDay;
export type UnlockDayRoute = typeof unlockDay;
export type GetOneRoute = typeof getOne;
export type CreateRoute = typeof create;
export type PatchRoute = typeof patch;
export type RemoveRoute = typeof remove;
export type RemoveDayRoute = typeof removeDay;

/** Photos are a manager's: SHIFT_READ, with no own-shift exception. */
const readPhotos = authorize("SHIFT_READ", { organizationOfCaller: true });

export const photos = defineRoute({
  method: "get",
  path: "/api/timesheets/{id}/photos",
  operationId: "listTimesheetShiftPhotos",
  flags: { scope: "caller" },
  tags,
  summary: "List a shift's photos",
  description:
    "The kiosk photos taken with the shift's punches, oldest first, as a bare array. Not paged: a shift has a photo per " +
    "kiosk punch at most, a handful. Each comes " +
    "with `url`, a signed link that serves the image without a token for 5 minutes (`urlExpiresAt`) and then answers " +
    "403 `PHOTO_URL_EXPIRED`: list again for fresh links. The organization is the token's; a partner-level token names " +
    "it with `organizationId`. Needs SHIFT_READ (a staff member without it does not see photos, even of their own shifts).",
  middleware: [readPhotos] as const,
  request: { params: ShiftParams, query: OrganizationQuery },
  responses: {
    200: jsonContent(z.array(ShiftPhoto), "The shift's photos"),
    ...problems("ORGANIZATION_SCOPE_REQUIRED", "ORGANIZATION_NOT_FOUND", "SHIFT_NOT_FOUND"),
  },
});
export type PhotosRoute = typeof photos;

export const history = defineRoute({
  method: "get",
  path: "/api/timesheets/{id}/history",
  operationId: "listTimesheetShiftHistory",
  flags: { scope: "caller", list: true },
  tags,
  summary: "List a shift's versions",
  description:
    "Every version of the shift with who and when, oldest first: one per write recorded in the audit log (create, " +
    "clock and break punches, edits, delete), each `{version, at, actor: {type, id, deviceId}, operationId, before, " +
    "after}`. `version` counts the shift's writes from 1; `before` and `after` are the shift as the API answered it " +
    "before and after that write (`before` null for the write that created it, or when its last change predates the " +
    "log). A deleted shift keeps its history (the record of working time an inspector may ask for: EU Court of " +
    "Justice C-55/18). The same entries, with the caller's IP country, are in GET " +
    "/api/organizations/{organization_id}/audit-log?resourceType=shift&resourceId=<id> (ORGANIZATION_ADMIN). Paged " +
    'with `limit`/`cursor` and `Link: rel="next"`. Another organization\'s shift is 404.' +
    scopeNote,
  middleware: [read] as const,
  request: { params: ShiftParams, query: ShiftHistoryQuery },
  responses: {
    200: jsonContent(z.array(ShiftVersion), "The shift's versions, oldest first"),
    ...problems("ORGANIZATION_SCOPE_REQUIRED", "ORGANIZATION_NOT_FOUND", "SHIFT_NOT_FOUND"),
  },
});
export type HistoryRoute = typeof history;
