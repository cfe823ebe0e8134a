import { z } from "@hono/zod-openapi";
import { authorize } from "@/auth/authorize";
import { jsonBody, jsonContent, OrganizationParams, problems } from "@/platform/openapi/helpers";
import { defineRoute } from "@/platform/routes/define-route";
import { Job } from "@/wire/job.schemas";
import {
  ApprovalBody,
  ApprovalParams,
  CloseBody,
  PayPeriod,
  PayPeriodDetail,
  PayPeriodParams,
  PayPeriodRangeQuery,
  PayPeriodSettings,
  PayPeriodSettingsPatch,
  Payroll,
  PayrollQuery,
  ReopenBody,
} from "./pay-periods.schemas";

const tags = ["Pay"];
const settingsPath = "/api/organizations/{organization_id}/pay-period-settings";
const periodsPath = "/api/organizations/{organization_id}/pay-periods";
const periodPath = `${periodsPath}/{periodId}`;
const read = authorize("SHIFT_READ");
const admin = authorize("ORGANIZATION_ADMIN");
const approve = authorize("TIMESHEET_APPROVE");

const freezeNote =
  " An approved timesheet freezes that staff member's shifts dated in the period: clocking, breaks, manual shifts, " +
  "edits and deletes of them answer 409 `TIMESHEET_APPROVED`. Nobody approves their own timesheet: a staff " +
  "member's token naming its own staff member is 403, whatever its permissions (an organization token approves " +
  "anyone).";

const closedNote =
  " A close freezes every date of every workweek overlapping the period (under every rule set's " +
  "`workweekStartsOn` in force then), in any period: shifts, punches, manual shifts and their edits and deletes, " +
  "time off requested, approved or cancelled on those dates, and rule sets taking effect on them are refused with " +
  "409 `PAY_PERIOD_CLOSED` naming `periodId` (rule sets: `PAY_RULES_IN_USE`) until it is reopened. Wages carry no " +
  "effective date: a shift keeps the wage it was recorded with, and a shift on a frozen date cannot change.";

export const getSettings = defineRoute({
  method: "get",
  path: settingsPath,
  operationId: "getPayPeriodSettings",
  flags: { scope: "organization" },
  tags,
  summary: "Retrieve the pay period settings",
  description: "Until changed: WEEKLY, anchored on the Monday of the week the organization was created.",
  middleware: [read] as const,
  request: { params: OrganizationParams },
  responses: { 200: jsonContent(PayPeriodSettings, "The settings"), ...problems("ORGANIZATION_NOT_FOUND") },
});

export const patchSettings = defineRoute({
  method: "patch",
  path: settingsPath,
  operationId: "updatePayPeriodSettings",
  flags: { scope: "organization" },
  tags,
  summary: "Update the pay period settings",
  description:
    "Changes the frequency or the anchor (the first day of any one period). WEEKLY and BIWEEKLY periods repeat " +
    "from the anchor; SEMIMONTHLY ones start each month on the anchor's day and 15 days after (or before) it, so " +
    "day 31 is 400; MONTHLY ones on the anchor's day, the month's last day when it is shorter. A change that would move a period closed at " +
    "least once is 409 `PAY_PERIODS_CLOSED`; one that would move a period holding approved timesheets is 409 " +
    "`TIMESHEET_APPROVED` (withdraw them first). Both name the `periodIds`.",
  middleware: [admin] as const,
  request: { params: OrganizationParams, body: jsonBody(PayPeriodSettingsPatch) },
  responses: {
    200: jsonContent(PayPeriodSettings, "The updated settings"),
    ...problems("ORGANIZATION_NOT_FOUND", "PAY_PERIODS_CLOSED", "TIMESHEET_APPROVED", "PAY_PERIOD_CHANGED"),
  },
});

export const list = defineRoute({
  method: "get",
  path: periodsPath,
  operationId: "listPayPeriods",
  flags: { scope: "organization" },
  tags,
  summary: "List pay periods",
  description:
    "Every period overlapping the range (at most 366 days), by start date, with its status and counts. Not paged: " +
    "the range bounds it. A period's id is its start date.",
  middleware: [read] as const,
  request: { params: OrganizationParams, query: PayPeriodRangeQuery },
  responses: { 200: jsonContent(z.array(PayPeriod), "The periods"), ...problems("ORGANIZATION_NOT_FOUND") },
});

export const get = defineRoute({
  method: "get",
  path: periodPath,
  operationId: "getPayPeriod",
  flags: { scope: "organization" },
  tags,
  summary: "Retrieve a pay period",
  description:
    "The period with every staff member who has shifts in it (or an approved timesheet), approved or not. A date " +
    "on which no period starts under the settings is 404.",
  middleware: [read] as const,
  request: { params: PayPeriodParams },
  responses: { 200: jsonContent(PayPeriodDetail, "The period"), ...problems("PAY_PERIOD_NOT_FOUND") },
});

export const approveTimesheets = defineRoute({
  method: "post",
  path: `${periodPath}/approvals`,
  operationId: "approveTimesheets",
  flags: { scope: "organization", idempotency: "middleware" },
  tags,
  summary: "Approve timesheets",
  description:
    "Approves the named staff members' timesheets for the period (one already approved keeps its first approval). " +
    "Refused while one of them still has a shift open in the period (409 `OPEN_SHIFT_IN_PERIOD`) or when the " +
    "period is closed (409 `PAY_PERIOD_CLOSED`). Needs TIMESHEET_APPROVE (LOCATION_ADMIN implies it)." +
    freezeNote,
  middleware: [approve] as const,
  request: { params: PayPeriodParams, body: jsonBody(ApprovalBody) },
  responses: {
    200: jsonContent(PayPeriodDetail, "The period"),
    ...problems("PAY_PERIOD_NOT_FOUND", "PAY_PERIOD_CLOSED", "OPEN_SHIFT_IN_PERIOD", "PAY_PERIOD_CHANGED"),
  },
});

export const withdrawApproval = defineRoute({
  method: "delete",
  path: `${periodPath}/approvals/{employeeId}`,
  operationId: "withdrawTimesheetApproval",
  flags: { scope: "organization" },
  tags,
  summary: "Withdraw a timesheet approval",
  description:
    "The staff member's shifts in the period can change again. Only while the period is open (409 " +
    "`PAY_PERIOD_CLOSED`); withdrawing an approval that does not exist changes nothing and records no event.",
  middleware: [approve] as const,
  request: { params: ApprovalParams },
  responses: {
    200: jsonContent(PayPeriodDetail, "The period"),
    ...problems("PAY_PERIOD_NOT_FOUND", "STAFF_MEMBER_NOT_FOUND", "PAY_PERIOD_CLOSED"),
  },
});

export const close = defineRoute({
  method: "post",
  path: `${periodPath}/close`,
  operationId: "closePayPeriod",
  flags: { scope: "organization", idempotency: "middleware" },
  tags,
  summary: "Close a pay period",
  description:
    "Computes the period's pay lines and stores them once as the payroll snapshot, with `snapshotHash` = SHA-256 " +
    "(hex) of its canonical JSON (keys sorted, no spaces). The snapshot is written first as two immutable objects in " +
    "R2, named by organization, period, version and close (`payroll/{organizationId}/{periodStartDate}/v{version}/" +
    "{closeId}.json` and `.csv`, never overwritten; their keys stay valid when the organization moves between " +
    "shards), then one atomic batch commits it with the JSON object's key, size and SHA-256: status CLOSED, version " +
    "+ 1, the dates it freezes stored, the rule sets it used immutable. The close computes the pay lines a page of " +
    "500 staff members at a time and streams the snapshot into its objects as it goes (R2 multipart uploads of 5 MiB " +
    "parts, SHA-256 and `snapshotHash` computed as the bytes pass), so its memory stays flat whatever the size of the " +
    "organization; a re-close stages the staff members' part first (its `adjustments` precede them in the canonical " +
    "JSON). A period with at most CLOSE_IN_REQUEST_MAX_EMPLOYEES staff members paid (5,000 by default) closes within " +
    "the request and answers 200 with the closed period. A larger one answers **202 with a job** (`Location`: " +
    "`GET …/jobs/{id}`, and the event `job.created`) once the refusals below are checked: a durable job (a Cloudflare " +
    "Workflow) computes 2,000 staff members a step into staged objects, assembles the payroll objects from them 8 MiB a step, then commits " +
    "the same batch as the request would, with the job SUCCEEDED (`job.succeeded`, and `pay_period.closed`); each " +
    "step is retried and the job resumes after a failure at any step. Until that last batch the period reads OPEN and " +
    "no row names any object of the job; a refusal found by the job (e.g. PAY_PERIOD_CHANGED: a shift changed while " +
    "it ran) or a step that keeps failing ends the job FAILED (`job.failed`, `error.code` the refusal's) with nothing " +
    "of it left in storage. A close that fails " +
    "while writing aborts its uploads: nothing is stored. A close whose batch fails (any 4xx/5xx) " +
    "leaves no visible snapshot: its objects are named by no row, and are deleted by the Cron after an hour. A period that has not ended cannot be closed: its " +
    "endDate, or the last day of the last workweek overlapping it, is today or later in the organization's zone " +
    "(409 `PAY_PERIOD_NOT_ENDED` naming `periodId`; closing earlier would refuse the rest of that week's punches). " +
    "Refused with 409 `TIMESHEETS_NOT_APPROVED` unless every staff member with shifts in it " +
    "is approved or `approveAll` is true (403 when that would approve the caller's own timesheet); with 409 " +
    "`OPEN_SHIFT_IN_PERIOD` while a shift is still open on a date it would freeze (each names at most the first 100 " +
    "staff members by id in `employeeIds`, and counts them all in `employeeCount`); with 409 `PAY_PERIOD_CLOSED` " +
    "when it is closed (of two concurrent closes one wins); with 409 `PAY_PERIOD_CHANGED` when a shift, time off " +
    "or rule set changed while it computed (nothing is written: retry). After a reopen, the payroll of the next " +
    "version carries signed `adjustments` against the previous one. Needs ORGANIZATION_ADMIN." +
    closedNote,
  middleware: [admin] as const,
  request: { params: PayPeriodParams, body: jsonBody(CloseBody) },
  responses: {
    200: jsonContent(PayPeriodDetail, "The closed period"),
    202: {
      description: "A large organization's close, started as a job",
      headers: z.object({ Location: z.string().openapi({ description: "The job's URL" }) }),
      content: { "application/json": { schema: Job } },
    },
    ...problems(
      "PAY_PERIOD_NOT_FOUND",
      "PAY_PERIOD_NOT_ENDED",
      "TIMESHEETS_NOT_APPROVED",
      "OPEN_SHIFT_IN_PERIOD",
      "PAY_PERIOD_CLOSED",
      "PAY_PERIOD_CHANGED",
    ),
  },
});

export const reopen = defineRoute({
  method: "post",
  path: `${periodPath}/reopen`,
  operationId: "reopenPayPeriod",
  flags: { scope: "organization", idempotency: "middleware" },
  tags,
  summary: "Reopen a pay period",
  description:
    "Makes a closed period OPEN again with the reason given; approvals are kept (withdraw one to change that " +
    "staff member's shifts), the stored payroll stays until the next close stores version + 1. A period not " +
    "closed is 409 `PAY_PERIOD_OPEN`. Needs ORGANIZATION_ADMIN.",
  middleware: [admin] as const,
  request: { params: PayPeriodParams, body: jsonBody(ReopenBody) },
  responses: { 200: jsonContent(PayPeriodDetail, "The reopened period"), ...problems("PAY_PERIOD_NOT_FOUND", "PAY_PERIOD_OPEN") },
});

export const payroll = defineRoute({
  method: "get",
  path: `${periodPath}/payroll`,
  operationId: "getPayroll",
  flags: { scope: "organization" },
  tags,
  summary: "Export a pay period's payroll",
  description:
    "The latest close's snapshot as stored (never recomputed), streamed from its R2 object (with Content-Length); the " +
    "CSV is the object the close wrote beside the JSON (a snapshot stored before R2 is read from the database, its " +
    "CSV derived from it: same bytes). JSON whose `snapshotHash` is the SHA-256 (hex) of " +
    "the canonical JSON of the document without it (the document is itself canonical JSON, `snapshotHash` among the " +
    "members in key order; one stored by a close before snapshots were streamed has it first), or CSV (RFC 4180, CRLF, header row) with one row per staff " +
    "member: employeeId, externalId, externalPayrollId, name, regularHours, overtimeHours, doubleTimeHours, " +
    "penaltyHours, timeOffHours, grossPay, currencyCode. A period never closed is 409 `PAY_PERIOD_OPEN`. The JSON " +
    "records what the close used: each staff member's `workweeks` with their regularRate, and `ruleSets`, the rule " +
    "set versions in force on the workdays of those workweeks; a re-close's `adjustments` also list each workweek " +
    "whose regular rate, minutes or straight-time pay changed; each staff member's `qualifiedOvertimePremium` (Pub. L. " +
    "119-21 §70202) and each workweek's `overtimePremium` and `qualifiedOvertimePremium`, for providers that compute " +
    "overtime per workweek; amounts in the organization's currency to its ISO 4217 minor units (whole yen for JPY), " +
    "as pay lines compute them; and each staff member's `warnings` (WAGE_BELOW_AWARD_MINIMUM, as pay lines) when a " +
    "shift was paid below its award's minimum.\n\n" +
    "**Provider files** (attachments, built from the stored snapshot alone and streamed as its R2 object is read, one " +
    "staff member at a time — read once first for what the file needs — never recomputed: the same snapshot, codes " +
    "and ids give the same bytes on every download; the organization's `payroll-settings` codes when its provider is " +
    "the format's, else that provider's defaults; rows keyed by each staff member's `payrollIds`). A staff member " +
    "without an id at the provider or a line kind without an earning code is 409 `PAYROLL_MAPPING_INCOMPLETE` with " +
    "`missing: {payrollIds: [staff member ids], earningCodes: [keys]}` — never guessed. Every figure sums the " +
    "snapshot's lines in cents, so a file's amounts add up to the payroll's grossPay and its hours to its minutes. " +
    "All four providers pay in US dollars only: their files write amounts to 2 decimals, the organization's " +
    "`currencyCode` unread; an organization in another currency takes the JSON or CSV payroll instead.\n" +
    "- `adp-wfn`: ADP Workforce Now Paydata import, CSV with Co Code, Batch ID and File # in the first three " +
    'positions (ADP Marketplace, "Automated Paydata Integration for ADP Workforce Now": Co Code, Batch ID, File #, ' +
    "Reg Hours, O/T Hours, Hours 3 Code and Amount, Earnings 3 Code and Amount, Temp Rate, FLSA Workweek). One row " +
    "per staff member, FLSA workweek, earning code and rate: REGULAR in Reg Hours, OVERTIME in O/T Hours, other hours " +
    "in Hours 3 Code/Amount, flat premiums in Earnings 3 Code/Amount; Temp Rate is the rate Shiftline paid (an " +
    "overtime rate already holds the workweek's regular-rate premium, 29 CFR 778.115: set the O/T and Hours 3 " +
    "earnings to pay hours × Temp Rate), FLSA Workweek the workweek's first day. Co Code and Batch ID come from the " +
    "settings.\n" +
    '- `gusto`: JSON in the shape of Gusto\'s Time Tracking API (docs.gusto.com, "Syncing Time Tracking Data"; time ' +
    "sheets whose hours are classified Regular, Overtime or Double overtime): `time_sheets` per staff member and " +
    "shift (`entity_uuid` the Gusto employee UUID, `entries: [{pay_classification, hours_worked, amount}]`), and " +
    "`other_earnings` for lines that are not hours worked (time off, premiums, SPREAD_OF_HOURS, SPLIT_SHIFT, " +
    "REPORTING_TIME and CALL_IN pay, an award's PENALTY, HOLIDAY and MINIMUM_ENGAGEMENT lines), even when charged to a " +
    "shift: a time sheet's hours are REGULAR, OVERTIME and DOUBLE_TIME only.\n" +
    '- `check`: JSON `payroll_items` of Check\'s payroll item object (docs.checkhq.com, "The payroll item object", ' +
    '"Types of earnings"): `{employee, earnings: [{type, amount (decimal string), hours, description, metadata: ' +
    "{workweek}}]}`, one earning per type, workweek and rate.\n" +
    "- `paychex`: JSON `checks` per worker with pay components (developer.paychex.com, check creation with job " +
    "costing): `{workerId, earnings: [{componentId, hours, payRate, amount, lineDate, jobId}]}`, one per line date, " +
    "component and rate.",
  middleware: [read] as const,
  request: { params: PayPeriodParams, query: PayrollQuery },
  responses: {
    200: {
      description: "The payroll (CSV and provider files as attachments)",
      content: { "application/json": { schema: Payroll }, "text/csv": { schema: z.string() } },
    },
    ...problems("PAY_PERIOD_NOT_FOUND", "PAY_PERIOD_OPEN", "PAYROLL_MAPPING_INCOMPLETE"),
  },
});

export type GetSettingsRoute = typeof getSettings;
export type PatchSettingsRoute = typeof patchSettings;
export type ListRoute = typeof list;
export type GetRoute = typeof get;
export type ApproveRoute = typeof approveTimesheets;
export type WithdrawRoute = typeof withdrawApproval;
export type CloseRoute = typeof close;
export type ReopenRoute = typeof reopen;
export type PayrollRoute = typeof payroll;
