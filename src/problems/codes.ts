/**
 * Every machine code a problem document can carry, with the statuses it comes with and what it means. The
 * OpenAPI document's `Problem.code` enum and each operation's per-status code lists are read from here; adding a
 * code is one line. `resource` marks the 404 that `notFound(resource)` answers.
 */
export type ProblemStatus = 400 | 401 | 403 | 404 | 409 | 412 | 413 | 415 | 422 | 423 | 429 | 500 | 503;

interface CodeEntry {
  statuses: readonly ProblemStatus[];
  meaning: string;
  resource?: string;
}

const code = <const S extends readonly ProblemStatus[]>(statuses: S, meaning: string) =>
  ({ statuses, meaning, resource: undefined }) as { statuses: S; meaning: string; resource: undefined };

/** The 404 of `notFound(resource)`. */
const missing = <const R extends string>(resource: R, meaning: string) =>
  ({ statuses: [404], meaning, resource }) as { statuses: readonly [404]; meaning: string; resource: R };

export const PROBLEM_CODES = {
  VALIDATION_FAILED: code([400], "A path, query or body field is invalid; `errors` names each one"),
  INVALID_API_VERSION: code([400], "The `Shiftline-Version` header is not a date (YYYY-MM-DD) on or after the first API version"),
  MALFORMED_JSON: code([400], "The request body is not valid JSON, or its bytes are not valid UTF-8"),
  INVALID_IDEMPOTENCY_KEY: code([400], "The Idempotency-Key header is not 1 to 255 characters"),
  INVALID_IF_MATCH: code([400], "The If-Match header is neither `*` nor a list of ETags"),
  INVALID_D1_BOOKMARK: code([400], "The X-D1-Bookmark header is not a bookmark this API returned"),
  POSITION_REQUIRED: code([400], "The location has a geofence for this event and the position is missing"),
  BREAK_TYPE_UNAVAILABLE: code([400], "The break type is not an enabled break type of this location"),
  STAFF_MEMBER_INACTIVE: code([400], "The staff member is not active"),
  NOT_ASSIGNED_TO_LOCATION: code([400], "The staff member is not assigned to this location"),
  OCCURRED_AT_IN_FUTURE: code([400], "`occurredAt` is more than 2 minutes ahead of the server"),
  OCCURRED_AT_TOO_OLD: code([400], "`occurredAt` is more than 72 hours old"),
  OCCURRED_AT_BEFORE_PREVIOUS_EVENT: code([400], "`occurredAt` is before the shift's previous event"),
  ENROLLMENT_CODE_INVALID: code([400], "The enrollment code is unknown, used or expired (the same answer for each)"),
  PHOTO_CONTENT_INVALID: code(
    [400],
    "The photo's bytes are not a whole JPEG, PNG or WebP image (by its structure, start to end), or not the type its Content-Type says",
  ),
  HTTP_ERROR: code([400, 401, 403, 404, 409, 413, 415, 422, 429], "A refusal from the HTTP layer with no code of its own"),

  MISSING_BEARER_TOKEN: code([401], "No `Authorization: Bearer` header"),
  INVALID_ACCESS_TOKEN: code([401], "The access token is invalid or expired"),
  TOKEN_MALFORMED: code([401], "The partner token is not a JWT"),
  TOKEN_ALGORITHM_NOT_ALLOWED: code([401], "The partner token is not signed with ES256 or RS256"),
  TOKEN_SIGNATURE_INVALID: code([401], "The partner token's signature does not verify with the partner's key"),
  TOKEN_EXPIRED: code([401], "The partner token has expired"),
  TOKEN_ISSUED_IN_FUTURE: code([401], "The partner token's `iat` is in the future"),
  TOKEN_CLAIM_MISSING: code([401], "A required claim of the partner token is missing"),
  TOKEN_CLAIM_INVALID: code([401], "A claim of the partner token is invalid"),
  TOKEN_REPLAYED: code([401], "The partner token (its `jti`) was exchanged already: each is exchanged once within its lifetime"),
  UNKNOWN_PARTNER: code([401], "No partner with the token's `iss` is configured"),
  UNKNOWN_ORGANIZATION: code([401], "The token's organization does not exist for this partner"),
  UNKNOWN_EMPLOYEE: code([401], "No active staff member matches the token's employee claim"),
  DEVICE_REVOKED: code([401], "The device token belongs to a revoked device (or one of a deleted location)"),
  PIN_INCORRECT: code([401], "The PIN is wrong, or the staff member is unknown here or has no PIN (the same answer for each)"),
  TOKEN_REVOKED: code([401], "A write with a stale token: organization deleted, staff member deactivated or access changed"),

  FORBIDDEN: code([403], "The token lacks the permission this operation needs"),
  INSUFFICIENT_SCOPE: code(
    [403],
    "The token's scopes do not grant the scope this operation needs (`x-required-scope`), named in `requiredScope`",
  ),
  ORGANIZATION_SCOPE_REQUIRED: code([403], "The operation needs a token that names an organization"),
  PARTNER_SCOPE_REQUIRED: code([403], "The operation needs a partner-level token (no organizationId)"),
  PHOTO_URL_INVALID: code([403], "The photo link's signature is not the service's for that photo and expiry"),
  PHOTO_URL_EXPIRED: code([403], "The photo link has expired: list the shift's photos again for a fresh one"),

  ROUTE_NOT_FOUND: code([404], "No operation at this method and path"),
  ORGANIZATION_NOT_FOUND: missing("Organization", "No such organization for this partner"),
  LOCATION_NOT_FOUND: missing("Location", "No such location in the organization"),
  STAFF_MEMBER_NOT_FOUND: missing("Staff member", "No such staff member in the organization"),
  ROLE_NOT_FOUND: missing("Role", "No such role in the organization"),
  ACCESS_ROLE_NOT_FOUND: missing("Access role", "No such access role in the organization"),
  BREAK_TYPE_NOT_FOUND: missing("Break type", "No such break type at the location"),
  SHIFT_NOT_FOUND: missing("Shift", "No such shift in the organization"),
  POLICY_NOT_FOUND: missing("Policy", "No such time-off policy in the organization"),
  TIME_OFF_REQUEST_NOT_FOUND: missing("Time off request", "No such time-off request in the organization"),
  SCHEDULE_ENTRY_NOT_FOUND: missing("Schedule entry", "No such schedule entry (or draft) at the location"),
  OPEN_SHIFT_NOT_FOUND: missing("Open shift", "No such open shift at the location"),
  PREFERENCE_NOT_FOUND: missing("Preference", "No such claim or preference on the open shift"),
  WEBHOOK_NOT_FOUND: missing("Webhook", "No such webhook endpoint in the organization"),
  WEBHOOK_DELIVERY_NOT_FOUND: missing("Webhook delivery", "No such delivery of the webhook endpoint"),
  EXPORT_NOT_FOUND: missing("Export", "No such export in the organization"),
  JOB_NOT_FOUND: missing("Job", "No such job in the organization"),
  PAY_RULE_SET_NOT_FOUND: missing("Pay rule set", "No such pay rule set in the organization"),
  PAY_PERIOD_NOT_FOUND: missing("Pay period", "No pay period starts on that date under the organization's settings"),
  AVAILABILITY_NOT_FOUND: missing("Availability", "No such availability of the staff member"),
  SHIFT_REQUEST_NOT_FOUND: missing("Shift request", "No such shift request at the location (or not one the caller may see)"),
  WAGE_RATE_NOT_FOUND: missing("Wage rate", "No such wage rate in the organization (or not one the caller may see)"),
  COST_CODE_NOT_FOUND: missing("Cost code", "No such cost code in the organization"),
  CUSTOM_FIELD_NOT_FOUND: missing("Custom field", "No such custom field in the organization"),
  DEVICE_NOT_FOUND: missing("Device", "No such device (or a revoked one) at the location"),
  PHOTO_NOT_FOUND: missing("Photo", "No such photo (of this kiosk's location, or the file was deleted with its organization)"),
  ATTENDANCE_EXCEPTION_NOT_FOUND: missing(
    "Attendance exception",
    "No such attendance exception in the organization (or not one the caller may see)",
  ),

  IDEMPOTENCY_REQUEST_IN_PROGRESS: code([409], "The first request with this Idempotency-Key is still running"),
  EXTERNAL_ID_TAKEN: code([409], "Another record of the organization has that externalId"),
  ACCESS_ROLE_NAME_TAKEN: code([409], "Another access role of the organization has that name"),
  ACCESS_ROLE_IN_USE: code([409], "Staff members still hold the access role"),
  ACCESS_ROLE_DELETED: code([409], "The access role was deleted meanwhile"),
  EXPORT_NOT_READY: code([409], "The export has not SUCCEEDED (yet): its file cannot be downloaded"),
  SHIFT_ALREADY_OPEN: code([409], "The staff member already has an open shift"),
  NO_OPEN_SHIFT: code([409], "The staff member has no open shift"),
  NOT_A_SANDBOX: code([409], "The organization is a live one: only a sandbox has a test clock"),
  WEBHOOK_EVENT_GONE: code(
    [409],
    "The delivery's event is no longer in the feed (older than 30 days, or a `webhook.test`): it cannot be replayed",
  ),
  SANDBOX_PERMANENT: code([409], "An organization's `sandbox` is set when it is created and never changes: a sandbox never goes live"),
  BREAK_ALREADY_OPEN: code([409], "A break is already open on the shift"),
  NO_OPEN_BREAK: code([409], "No break is open on the shift"),
  DAY_LOCKED: code([409], "The shift's business date is locked for its location"),
  SHIFT_OVERLAP: code([409], "The staff member already has a shift overlapping these times"),
  SHIFT_CHANGED: code([409], "The shift was changed or deleted by another request meanwhile"),
  POLICY_NOT_AVAILABLE: code([409], "The time-off policy is not Active, or the staff member is not included in it"),
  POLICY_NOT_ACTIVE: code([409], "Only an Active time-off policy can be deactivated"),
  INSUFFICIENT_BALANCE: code([409], "The request needs more hours than the balance has available (with both amounts)"),
  TIME_OFF_OVERLAP: code([409], "The staff member has a pending or approved request overlapping these times"),
  REQUEST_NOT_PENDING: code([409], "Only a pending time-off request can be edited, approved or declined"),
  REST_CONSENT_REQUIRED: code(
    [409],
    "The entry starts inside the rest window after (or ends inside the one before) another of the worker's entries, and the location's Fair Workweek pack requires the worker's consent: name their REST consent as `consentId`",
  ),
  WORKING_TIME_CONFLICT: code(
    [409],
    "The write breaks the location's working-time rules (rest, daily or weekly maximum, a minor's hours), each listed in `violations`; a caller with WORKING_TIME_OVERRIDE may send `workingTimeOverride: {reason}`",
  ),
  SCHEDULE_OVERLAP: code([409], "The staff member already has a schedule entry (draft or published) overlapping these times"),
  SCHEDULE_CONFLICT: code([409], "Published schedule entries of the staff member overlap the time off (named in `scheduleEntryIds`)"),
  TIME_OFF_CONFLICT: code([409], "The staff member has approved time off during these times"),
  OPEN_SHIFT_FULL: code([409], "Every place on the open shift is taken (or fewer places than already approved)"),
  OPEN_SHIFT_NOT_PUBLISHED: code([409], "The open shift is a draft and cannot be claimed yet"),
  WORKER_NOT_ASSIGNED: code([409], "The worker is not active and assigned to the open shift's location"),
  ALREADY_CLAIMED: code([409], "The worker already has a claim or preference on the open shift"),
  PREFERENCE_NOT_PENDING: code([409], "The preference is no longer pending (approved, declined or retracted meanwhile)"),
  OPEN_SHIFT_CHANGED: code(
    [409],
    "The open shift was published, or given a draft assignment, meanwhile: nothing was written; read it again and retry",
  ),
  TIMESHEET_APPROVED: code([409], "The staff member's timesheet for that date is approved"),
  TIMESHEETS_NOT_APPROVED: code(
    [409],
    "Some employees of the pay period are not approved (named in `employeeIds`: by a close, the first 100 by id; `employeeCount` counts them all)",
  ),
  PAY_PERIOD_OPEN: code([409], "The pay period has never been closed, or is open: it has no payroll, or cannot be reopened"),
  PAYROLL_MAPPING_INCOMPLETE: code(
    [409],
    "A payroll file cannot be built: staff members without an id at the provider (`missing.payrollIds`) or line kinds without an earning code (`missing.earningCodes`)",
  ),
  PAY_PERIOD_CLOSED: code(
    [409],
    "The pay period is closed (`periodId`): the dates of every workweek overlapping it are frozen; reopen it first",
  ),
  PAY_PERIOD_NOT_ENDED: code(
    [409],
    "The pay period, or a workweek overlapping it, has not ended in the organization's zone: it cannot be closed yet",
  ),
  OPEN_SHIFT_IN_PERIOD: code(
    [409],
    "A staff member has a shift still open (clocked in) in the pay period (named in `employeeIds`: by a close, the first 100 by id; `employeeCount` counts them all)",
  ),
  PAY_PERIOD_CHANGED: code(
    [409],
    "The pay period settings, or the shifts, time off or pay rules a close read, changed meanwhile: nothing was written; retry",
  ),
  PAY_PERIODS_CLOSED: code([409], "The change would move a pay period that has been closed"),
  PAY_RULES_IN_USE: code(
    [409],
    "A closed pay period used the rule set, or the change would alter which set governs a closed period: add a newer one",
  ),
  PAY_RULES_VERSION_TAKEN: code([409], "Another rule set of the same scope takes effect on that date"),
  SHIFT_REQUEST_NOT_PENDING: code(
    [409],
    "The shift request is no longer in the state the action needs (accepted, decided, cancelled or expired)",
  ),
  SHIFT_REQUEST_EXISTS: code([409], "The schedule entry already has a pending or accepted shift request"),
  WAGE_RATE_TAKEN: code([409], "The staff member has a wage rate for that role, location and effectiveFrom already"),
  COST_CODE_TAKEN: code([409], "Another live cost code under the same parent (or another root) has that code"),
  COST_CODE_HAS_CHILDREN: code([409], "The cost code has live child codes: delete or move them first"),
  CUSTOM_FIELD_NAME_TAKEN: code([409], "Another active custom field of the organization has that name"),
  CUSTOM_FIELDS_CHANGED: code(
    [409],
    "The organization's custom fields changed while the shift was written: nothing was written; read them and retry",
  ),
  WORKER_UNAVAILABLE: code([409], "The staff member is unavailable then (an UNAVAILABLE occurrence of their availability)"),
  PHOTO_ALREADY_ATTACHED: code([409], "The photo is attached to another punch already: take a new one"),

  PRECONDITION_FAILED: code([412], "The record is no longer the version If-Match names; nothing was written"),
  PAYLOAD_TOO_LARGE: code([413], "The body is over 256 KiB (1 MiB for sync operations)"),
  UNSUPPORTED_MEDIA_TYPE: code([415], "The body is not application/json (or a +json type) in UTF-8: no parameter but charset=utf-8"),
  PHOTO_TYPE_UNSUPPORTED: code([415], "A photo's Content-Type is not image/jpeg, image/png or image/webp"),

  IDEMPOTENCY_KEY_REUSED: code([422], "The Idempotency-Key was used with a different request"),
  PAY_RULES_NOT_ORGANIZATIONS_WORKWEEK: code(
    [422],
    "A location's rule set names another workweekStartsOn or workdayStartsAt than the organization's set in force on its effectiveFrom (`errors` names the field)",
  ),
  COST_CODE_TOO_DEEP: code([422], "The cost code (with the codes under it) would be deeper than 5 levels"),
  COST_CODE_CYCLE: code([422], "The new parent is the cost code itself or one of the codes under it"),
  TEST_CLOCK_BACKWARDS: code([422], "A test clock only moves forward: `to` is before the sandbox's time now"),
  COST_CODE_NOT_ASSIGNED: code([422], "The cost code is not an active cost code assigned to the staff member"),
  OUTSIDE_GEOFENCE: code([422], "The position is outside the location's geofence (with the distances)"),
  PHOTO_REQUIRED: code([422], "The location requires a photo with each kiosk punch (kioskPhotoRequired): send its photoId"),

  PIN_LOCKED: code(
    [423],
    "Five wrong PINs at one location within 15 minutes locked the staff member's PIN on that location's devices until Retry-After (or a manager lifts it)",
  ),

  RATE_LIMITED: code([429], "The caller's rate limit is used up until Retry-After"),

  ORGANIZATION_MOVING: code([503], "The organization is being moved between databases: nothing was written; retry after Retry-After"),

  INTERNAL_ERROR: code([500], "An unexpected failure; the body carries the requestId to report"),
} as const satisfies Record<string, CodeEntry>;

export type ProblemCode = keyof typeof PROBLEM_CODES;

type Codes = typeof PROBLEM_CODES;

/** The resource names `notFound(...)` takes, each tied to its `…_NOT_FOUND` code above. */
export type NotFoundResource = { [K in ProblemCode]: Codes[K]["resource"] }[ProblemCode] & string;

/** The codes that may come with `status`. */
export type CodeOfStatus<S extends ProblemStatus> = {
  [K in ProblemCode]: S extends Codes[K]["statuses"][number] ? K : never;
}[ProblemCode];

/** The statuses `code` may come with. */
export type StatusOfCode<C extends ProblemCode> = Codes[C]["statuses"][number];

export const PROBLEM_CODE_NAMES = Object.keys(PROBLEM_CODES) as [ProblemCode, ...ProblemCode[]];

const entries = Object.entries(PROBLEM_CODES) as [ProblemCode, CodeEntry][];

export const codesOfStatus = (status: ProblemStatus): ProblemCode[] =>
  entries.filter(([, entry]) => entry.statuses.includes(status)).map(([name]) => name);

export const notFoundCode = (resource: NotFoundResource): ProblemCode => entries.find(([, entry]) => entry.resource === resource)![0];

/** Codes the document adds to operations by itself (token, permission, body, idempotency); routes never name them. */
export const PLATFORM_CODES: ReadonlySet<ProblemCode> = new Set<ProblemCode>([
  "VALIDATION_FAILED",
  "INVALID_API_VERSION",
  "MALFORMED_JSON",
  "INVALID_IDEMPOTENCY_KEY",
  "HTTP_ERROR",
  "MISSING_BEARER_TOKEN",
  "INVALID_ACCESS_TOKEN",
  "DEVICE_REVOKED",
  "TOKEN_REVOKED",
  "FORBIDDEN",
  "INSUFFICIENT_SCOPE",
  "ORGANIZATION_SCOPE_REQUIRED",
  "ROUTE_NOT_FOUND",
  "ORGANIZATION_NOT_FOUND",
  "IDEMPOTENCY_REQUEST_IN_PROGRESS",
  "PAYLOAD_TOO_LARGE",
  "UNSUPPORTED_MEDIA_TYPE",
  "IDEMPOTENCY_KEY_REUSED",
  "ORGANIZATION_MOVING",
  "INTERNAL_ERROR",
]);

/** The RFC 9457 titles of the statuses a route may answer, as the brief labels them. */
export const PROBLEM_LABELS = {
  400: "Bad Request",
  401: "Unauthorized",
  403: "Forbidden",
  404: "Record Not Found",
  409: "Conflict",
  412: "Precondition Failed",
  413: "Content Too Large",
  415: "Unsupported Media Type",
  422: "Unprocessable Entity",
  423: "Locked",
  429: "Too Many Requests",
  503: "Service Unavailable",
} as const;
