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
  401: "Unauthorized: missing, invalid or expired bearer token",
  403: "Forbidden: the token lacks the permission this operation needs",
  404: "Record Not Found: no such record in the caller's organization",
  409: "Conflict: the request conflicts with the current state",
  413: "Content Too Large: the body is over 256 KiB (1 MiB for sync operations)",
  415: "Unsupported Media Type: send application/json",
  422: "Unprocessable Entity",
} as const;

type ProblemStatusCode = keyof typeof problemDescriptions;

const problemContent = <T extends ZodType>(schema: T, description: string) => ({
  content: { "application/problem+json": { schema } },
  description,
});

const problem = (status: ProblemStatusCode) => problemContent(ProblemSchema, problemDescriptions[status]);

/** One error response whose problem carries more than the generic Problem (spread after `problems(...)`). */
export const problemWith = <T extends ZodType>(status: ProblemStatusCode, schema: T, description?: string) =>
  problemContent(schema, description ?? problemDescriptions[status]);

/** Error responses of a route: the authenticated defaults plus the ones it names. */
export function problems<const S extends ProblemStatusCode>(...statuses: S[]) {
  const all = [...new Set<ProblemStatusCode>([400, 401, 403, ...statuses])];
  return Object.fromEntries(all.map((s) => [s, problem(s)])) as Record<400 | 401 | 403 | S, ReturnType<typeof problem>>;
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
  { name: "Schedules", description: "Planned shifts of a location: drafts, publishing and bulk copy." },
  { name: "Open shifts", description: "Shifts offered to a location's staff, with claims, preferences and assignments." },
  { name: "Meta", description: "Health and the API description." },
] as const;

export type Tag = (typeof TAGS)[number]["name"];
