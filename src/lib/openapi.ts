import { z } from "@hono/zod-openapi";
import type { ZodType } from "zod";
import { ProblemSchema } from "./problem";

export const jsonContent = <T extends ZodType>(schema: T, description: string) => ({
  content: { "application/json": { schema } },
  description,
});

export const jsonBody = <T extends ZodType>(schema: T, description = "JSON body") => ({
  content: { "application/json": { schema } },
  description,
  required: true,
});

const problemDescriptions = {
  400: "Bad Request: validation failed (`VALIDATION_FAILED` with `errors`), malformed JSON or an unknown reference",
  401: "Unauthorized: missing, invalid or expired bearer token; on writes also a revoked one (`TOKEN_REVOKED`)",
  403: "Forbidden: the token lacks the permission this operation needs",
  404: "Record Not Found: no such record in the caller's organization",
  409: "Conflict: the request conflicts with the current state",
  412: "Precondition Failed: the record is no longer the version If-Match names (`PRECONDITION_FAILED`)",
  413: "Content Too Large: the body is over 256 KiB (1 MiB for sync operations)",
  415: "Unsupported Media Type: send application/json",
  422: "Unprocessable Entity",
  429: "Too Many Requests: `RATE_LIMITED`, the caller's rate limit is used up until `Retry-After`",
} as const;

type ProblemStatusCode = keyof typeof problemDescriptions;

const problemContent = <T extends ZodType>(schema: T, description: string) => ({
  content: { "application/problem+json": { schema } },
  description,
});

/** Sent with every 429 (draft-ietf-httpapi-ratelimit-headers-10 fields); `RateLimit-Policy` also on other answers. */
const rateLimitHeaders = {
  "Retry-After": { description: "Seconds until the window resets.", schema: { type: "integer", minimum: 1 } },
  "RateLimit-Policy": {
    description: "The quota policy: name, quota `q` and window `w` in seconds.",
    schema: { type: "string", example: '"api";q=600;w=60' },
  },
  RateLimit: {
    description: "The policy's remaining quota `r` and seconds `t` until it resets.",
    schema: { type: "string", example: '"api";r=0;t=30' },
  },
} as const;

const problem = (status: ProblemStatusCode) => ({
  ...problemContent(ProblemSchema, problemDescriptions[status]),
  ...(status === 429 ? { headers: rateLimitHeaders } : {}),
});

/** One error response whose problem carries more than the generic Problem (spread after `problems(...)`). */
export const problemWith = <T extends ZodType>(status: ProblemStatusCode, schema: T, description?: string) =>
  problemContent(schema, description ?? problemDescriptions[status]);

/** Error responses of a route: the authenticated defaults plus the ones it names. */
export function problems<const S extends ProblemStatusCode>(...statuses: S[]) {
  const all = [...new Set<ProblemStatusCode>([400, 401, 403, 429, ...statuses])];
  return Object.fromEntries(all.map((s) => [s, problem(s)])) as Record<400 | 401 | 403 | 429 | S, ReturnType<typeof problem>>;
}

export const publicProblems = <const S extends ProblemStatusCode>(...statuses: S[]) =>
  Object.fromEntries([400, ...statuses].map((s) => [s, problem(s as ProblemStatusCode)])) as Record<400 | S, ReturnType<typeof problem>>;

export const idParam = (name: string, description: string) =>
  z.string().min(1).max(64).openapi({ param: { name, in: "path" }, description, example: "0193a5a0-7c1e-7b2a-9d4e-1f2a3b4c5d6e" });

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
  { name: "Timesheets", description: "Shifts for managers and payroll: listing with totals, manual shifts, locked days, exports and reports." },
  { name: "Meta", description: "Health and the API description." },
] as const;

export type Tag = (typeof TAGS)[number]["name"];

/*
 * Conditional requests on single records (runtime in lib/conditional): GETs take If-None-Match and may answer 304;
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
  "If-Match": z.string().max(1024).optional().openapi({
    description:
      "Write only if the record is still this version (an ETag from an earlier answer), else 412 `PRECONDITION_FAILED` " +
      "and nothing is written; `*` only asks that the record exists.",
    example: '"1732283136000"',
  }),
});

export const notModified = {
  304: { description: "Not Modified: the record is still the version If-None-Match names", headers: ETAG_HEADER },
};
