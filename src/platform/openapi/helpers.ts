import { z } from "@hono/zod-openapi";
import type { ZodType } from "zod";
import { API_VERSIONS } from "@/domain/api-versions";
import { DOT_SEGMENT_MESSAGE, isDotSegment } from "@/platform/schemas/validation";
import {
  codesOfStatus,
  PLATFORM_CODES,
  PROBLEM_CODES,
  PROBLEM_LABELS,
  type ProblemCode,
  type ProblemStatus,
  type StatusOfCode,
} from "@/problems/codes";
import { ProblemSchema } from "@/problems/problem";

export const jsonContent = <T extends ZodType>(schema: T, description: string) => ({
  content: { "application/json": { schema } },
  description,
});

export const jsonBody = <T extends ZodType>(schema: T, description = "JSON body") => ({
  content: { "application/json": { schema } },
  description,
  required: true,
});

export { PROBLEM_LABELS };

export type ProblemStatusCode = keyof typeof PROBLEM_LABELS;

/** Vendor extension on an error response: the codes the route names for that status (the document adds its own). */
export const PROBLEM_CODES_KEY = "x-problem-codes";

/** A status, or a code whose status the registry knows. */
export type ProblemArg = ProblemStatusCode | ProblemCode;

type StatusOfArg<A> = A extends ProblemStatusCode ? A : A extends ProblemCode ? StatusOfCode<A> & ProblemStatusCode : never;

const problemContent = <T extends ZodType>(schema: T, status: ProblemStatusCode, codes: ProblemCode[], description?: string) => ({
  content: { "application/problem+json": { schema } },
  description: description ?? PROBLEM_LABELS[status],
  [PROBLEM_CODES_KEY]: codes,
});

type ProblemResponse = ReturnType<typeof problemContent<typeof ProblemSchema>>;

function statusesOf(arg: ProblemArg): ProblemStatusCode[] {
  if (typeof arg === "number") return [arg];
  const statuses: readonly ProblemStatus[] = PROBLEM_CODES[arg].statuses;
  return statuses.filter((s): s is ProblemStatusCode => s in PROBLEM_LABELS);
}

function collect(args: readonly ProblemArg[], always: ProblemStatusCode[]) {
  const byStatus = new Map<ProblemStatusCode, ProblemCode[]>(always.map((s) => [s, []]));
  for (const arg of args) {
    for (const status of statusesOf(arg)) {
      const codes = byStatus.get(status) ?? [];
      if (typeof arg === "string") codes.push(arg);
      byStatus.set(status, codes);
    }
  }
  // A status named without any code: every route-level code the registry has for it.
  for (const arg of args) {
    if (typeof arg === "number" && byStatus.get(arg)?.length === 0) {
      byStatus.set(
        arg,
        codesOfStatus(arg).filter((c) => !PLATFORM_CODES.has(c)),
      );
    }
  }
  return Object.fromEntries([...byStatus].map(([s, codes]) => [s, problemContent(ProblemSchema, s, codes)]));
}

/**
 * One error response whose problem carries more than the generic Problem (spread after `problems(...)`), with the
 * codes the route names for it.
 */
export const problemWith = <T extends ZodType>(status: ProblemStatusCode, schema: T, description?: string, codes: ProblemCode[] = []) =>
  problemContent(schema, status, codes, description);

/**
 * Error responses of an authenticated route: 400, 401 and 403, plus what it names. Name a status (`404`) or, better,
 * the codes it can answer (`"LOCATION_NOT_FOUND"`, `"DAY_LOCKED"`): their statuses come from the registry. The
 * document adds the platform's codes itself (token, permission, body, idempotency, organization).
 */
export function problems<const A extends readonly ProblemArg[]>(...args: A) {
  return collect(args, [400, 401, 403]) as Record<400 | 401 | 403 | StatusOfArg<A[number]>, ProblemResponse>;
}

/** Error responses of a route that needs no token. */
export function publicProblems<const A extends readonly ProblemArg[]>(...args: A) {
  return collect(args, [400]) as Record<400 | StatusOfArg<A[number]>, ProblemResponse>;
}

/**
 * A path id. The service's ids are never dot segments; one that reaches a route anyway (a client that does not resolve
 * them) is refused rather than looked up.
 */
export const idParam = (name: string, description: string) =>
  z
    .string()
    .min(1)
    .max(64)
    .refine((text) => !isDotSegment(text), DOT_SEGMENT_MESSAGE)
    .openapi({
      param: { name, in: "path" },
      description: `${description}. Never \`.\` or \`..\`: a path ending in \`/\` is 404 \`ROUTE_NOT_FOUND\` (README, Ids in paths).`,
      example: "0193a5a0-7c1e-7b2a-9d4e-1f2a3b4c5d6e",
    });

/** An optional id in the query string (a filter), as the path's ids are checked. */
export const queryIdParam = (name: string, description?: string) =>
  z
    .string()
    .min(1)
    .max(64)
    .optional()
    .openapi({ param: { name, in: "query" }, ...(description === undefined ? {} : { description }) });

export const OrganizationParams = z.object({
  organization_id: idParam("organization_id", "Organization id"),
});

export const OrganizationRecordParams = OrganizationParams.extend({ id: idParam("id", "Record id") });

export const TAGS = [
  { name: "Authentication", description: "Exchange a partner-signed token for an access token." },
  { name: "Organizations", description: "A partner's organizations, with defaults and location sync." },
  { name: "Locations", description: "Workplaces with addresses, time zones and geofences." },
  { name: "Staff members", description: "People who clock in, with their locations, roles and access role." },
  { name: "Roles", description: "Job roles worked on shifts, with an hourly wage." },
  { name: "Access roles", description: "Named permission sets assigned to staff members." },
  { name: "Time tracking", description: "Shift state, clock in and out, and breaks, with geofence and trust checks." },
  { name: "Break types", description: "The breaks a location offers, paid or unpaid, optional or mandatory." },
  { name: "Shift notes", description: "Notes on a staff member's current shift." },
  {
    name: "Timesheets",
    description: "Shifts for managers and payroll: listing with totals, manual shifts, locked days, exports and reports.",
  },
  {
    name: "Pay",
    description: "Pay rules, pay lines with overtime explained, pay periods with approval, close and payroll export.",
  },
  { name: "Time off", description: "Policies and their types, balances kept as a ledger, accrual, requests with approval, settings." },
  { name: "Availability", description: "When staff members cannot or would like to work, one-off or recurring (RFC 5545)." },
  {
    name: "Attendance",
    description:
      "Schedule against actual: late, early, unscheduled, no-show, missed meal break and forgotten clock-outs closed automatically.",
  },
  { name: "Schedules", description: "Planned shifts of a location: drafts, publishing and bulk copy." },
  { name: "Shift requests", description: "Drops and swaps of published entries, accepted by colleagues and approved by managers." },
  { name: "Open shifts", description: "Shifts offered to a location's staff, with claims, preferences and assignments." },
  { name: "Events", description: "Every change as an ordered, replayable feed (the webhooks' source)." },
  { name: "Webhooks", description: "Endpoints that receive the events, signed per Standard Webhooks, in order." },
  { name: "Exports", description: "Timesheets and events over any range, written as files by background jobs." },
  { name: "Jobs", description: "Durable jobs: work larger than one request (a large organization's pay period close), followed by id." },
  { name: "Demand", description: "Sales and transactions per 15-minute interval, actual and forecast, and labor targets." },
  { name: "Wage rates", description: "Effective-dated hourly rates per staff member, role and location; what a shift is paid." },
  { name: "Cost codes", description: "A tree of codes (up to 5 levels) that time is charged to, assigned to staff members." },
  {
    name: "Fair Workweek",
    description: "Rule packs per jurisdiction (notice, predictability pay, rest between shifts), per location, and good-faith estimates.",
  },
  {
    name: "Working time",
    description: "Rest, maximum hours, breaks, averages and minors' hours by jurisdiction: rule packs, location settings, the report.",
  },
  { name: "Custom fields", description: "Fields of the organization's own that shifts carry (text with a pattern, or a list)." },
  { name: "Kiosks", description: "Shared devices at a location's door, enrolled once, and staff PINs to punch on them." },
  { name: "Photos", description: "Kiosk photos taken with punches, served through short-lived signed links." },
  {
    name: "Audit log",
    description: "Who changed what, when and from where, with the before and after of disputable records; immutable.",
  },
  { name: "Meta", description: "Health and the API description." },
] as const;

export type Tag = (typeof TAGS)[number]["name"];

export const DOCUMENT_INTRODUCTION = [
  "Workforce time tracking and scheduling at the edge.",
  "",
  "- **Errors** are RFC 9457 problem documents (`application/problem+json`) with a stable `code`; each operation's " +
    "error responses list the codes that status can carry there.",
  "- **Lists** are bare arrays paged with `limit` (decimal digits, 1–500) and `cursor`; while more remain, the response " +
    'has a `Link: <…>; rel="next"` header. A `cursor` this service did not hand out is a 400 naming `cursor`.',
  "- **Times**: instants are ISO 8601 in UTC. A shift's `startTime`/`endTime` are its *local wall-clock* time written " +
    "with a `Z` suffix (a stated compatibility rule, not UTC): `utcStartTime = startTime − utcOffset minutes`, where " +
    "`utcOffset` is minutes east of UTC. Read `utcStartTime`/`utcEndTime` for the instant.",
  "- **Retries**: every authenticated POST takes an `Idempotency-Key` header (1–255 characters).",
  "- Every response carries `X-Request-Id`.",
  "- **MCP**: `/mcp` (beside `/api`, not under it) speaks the Model Context Protocol over streamable HTTP (stateless, " +
    "JSON answers) with the same Bearer access token. Its tools are this document's operations (name: `operationId`; " +
    "input: the path and query parameters by name, and `body`), each call answered by that operation with the " +
    "caller's token; reads for every token, writes only for a token that may write. A POST tool sends an " +
    "`Idempotency-Key`: its optional `idempotencyKey` argument, else one derived from the JSON-RPC request id, the " +
    "token's subject, the tool and its arguments. `/mcp` has its own rate limit per token (policy `mcp`): beyond it, " +
    "HTTP 429 `RATE_LIMITED` with `Retry-After`. It is one JSON-RPC endpoint " +
    "whose messages the MCP specification defines, so it is not one of `paths`.",
  "- **Versions** are dated. A partner is pinned to the version current at its first token exchange; a request's " +
    "`Shiftline-Version: YYYY-MM-DD` header overrides it (the latest version on or before that date), and every " +
    "response names the version it was served in (`Shiftline-Version`). A webhook endpoint delivers in the version " +
    "of the request that created it (its `apiVersion`). The versions and what each changed:",
  ...API_VERSIONS.flatMap(({ version, changes }) => changes.map((change) => `  - \`${version}\`: ${change}`)),
  "- **Scopes**: a token may carry scopes narrower than its role (`POST /api/auth/exchangeToken`); each operation " +
    "names the one it needs in `x-required-scope`, and answers 403 " +
    "`INSUFFICIENT_SCOPE` to a token whose scopes do not grant it.",
].join("\n");

/*
 * Conditional requests on single records (runtime in platform/http/conditional): GETs take If-None-Match and may answer 304;
 * writes take If-Match and answer 412 when the record moved on; both answer the record's ETag.
 */
const ETAG_HEADER = {
  ETag: {
    description: "The record's version (its `updatedAt` in epoch milliseconds, quoted): send it back in If-Match or If-None-Match.",
    schema: { type: "string" as const, example: '"1732283136000"' },
  },
};

/** A response carrying one record, with its ETag. */
export const withETag = <R extends object>(response: R) => ({ ...response, headers: ETAG_HEADER });

export const IfNoneMatchHeaders = z.object({
  "If-None-Match": z.string().max(1024).optional().openapi({
    description: "An ETag from an earlier answer: 304 Not Modified, with no body, while the record is still that version.",
    example: '"1732283136000"',
  }),
});

export const IfMatchHeaders = z.object({
  "If-Match": z
    .string()
    .max(1024)
    .optional()
    .openapi({
      description:
        "Write only if the record is still this version (an ETag from an earlier answer), else 412 `PRECONDITION_FAILED` " +
        "and nothing is written; `*` only asks that the record exists.",
      example: '"1732283136000"',
    }),
});

export const notModified = {
  304: { description: "Not Modified: the record is still the version If-None-Match names", headers: ETAG_HEADER },
};
