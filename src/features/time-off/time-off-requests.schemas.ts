import { REQUEST_STATUSES } from "@db/schema";
import { z } from "@hono/zod-openapi";
import { idParam, OrganizationParams } from "@/platform/openapi/helpers";
import { ListQuery } from "@/platform/schemas/list-query";
import { CalendarDate, Instant, TimeZone } from "@/platform/schemas/validation";
import { Policy } from "./policies.schemas";

const EXAMPLE_ID = "0193a5a0-7c1e-7b2a-9d4e-1f2a3b4c5d6e";
const RequestInstant = Instant.openapi({ example: "2026-07-06T09:00:00-04:00" });

export const DayHours = z
  .object({
    date: CalendarDate.openapi({ example: "2026-07-06" }),
    // 25: the longest local day (a DST fall-back day), so every configuration the API answers can be sent back.
    hours: z.number().positive().max(25).openapi({ example: 8 }),
  })
  .openapi("TimeOffDayHours");

export const EmbeddedPolicy = Policy.omit({ assignedStaffCount: true }).openapi("EmbeddedPolicy");

export const WorkerPolicySummary = z
  .object({ id: z.string(), name: z.string(), hoursBalance: z.number(), availableBalance: z.number(), isIncluded: z.boolean() })
  .openapi("WorkerPolicySummary");

export const TimeOffRequest = z
  .object({
    id: z.string().openapi({ example: EXAMPLE_ID }),
    organizationId: z.string(),
    workerId: z.string(),
    policyId: z.string(),
    policy: EmbeddedPolicy,
    locationId: z.string().nullable().openapi({
      example: EXAMPLE_ID,
      description: "The location the worker is away from: one of their locations; null for a worker assigned to none.",
    }),
    startTime: z.string().openapi({ example: "2026-07-06T13:00:00.000Z" }),
    endTime: z.string().openapi({ example: "2026-07-06T21:00:00.000Z" }),
    status: z.enum(REQUEST_STATUSES),
    note: z.string().nullable(),
    hourConfiguration: z.array(DayHours),
    timezone: z.string(),
    utcOffset: z.number().int().openapi({ description: "Minutes east of UTC at the start, in `timezone`" }),
    isAllDay: z.boolean(),
    submittedAt: z.string(),
    decidedAt: z.string().nullable(),
    declineReason: z.string().nullable(),
    totalHours: z.number().openapi({ description: "Σ hourConfiguration (hours)" }),
    remainingBalance: z.number().openapi({ description: "The balance's availableBalance, in the policy's units" }),
    workerPolicy: WorkerPolicySummary,
    createdAt: z.string(),
    updatedAt: z.string(),
  })
  .openapi("TimeOffRequest");

const writeFields = {
  policyId: z.string().min(1).max(64).openapi({ example: EXAMPLE_ID }),
  startTime: RequestInstant,
  endTime: RequestInstant.openapi({ example: "2026-07-06T17:00:00-04:00" }),
  isAllDay: z.boolean().default(false),
  hourConfiguration: z
    .array(DayHours)
    .max(366)
    .optional()
    .openapi({
      description:
        "Hours per local date of the window: every date once, none outside it. Each date holds at most the window's " +
        "hours that day, or for an all-day request the policy's fullDayDuration (a caller with TIMEOFF_APPROVE may " +
        "give up to the local day's length: 23–25 h on DST change days). Derived when omitted (all-day: " +
        "fullDayDuration, else the hours inside the window). A configuration that does not add up is a 400.",
    }),
  note: z.string().max(2000).optional(),
  timezone: TimeZone.optional().openapi({ description: "Zone of the local dates; the organization's by default" }),
  locationId: z.string().min(1).max(64).optional().openapi({
    example: EXAMPLE_ID,
    description: "One of the worker's locations (400 otherwise). Default: on create the worker's first location; on PUT the request's own.",
  }),
};

export const TimeOffRequestCreate = z
  .object({
    workerId: z.string().min(1).max(64).optional().openapi({
      example: EXAMPLE_ID,
      description: "The staff member taking the time off; the caller's own staff member when omitted (required for an organization token).",
    }),
    ...writeFields,
  })
  .openapi("TimeOffRequestCreate");

export const TimeOffRequestUpdate = z.object(writeFields).openapi("TimeOffRequestUpdate");

export const ApproveBody = z
  .object({
    cancelConflictingEntries: z.boolean().optional().openapi({
      description: "Remove the worker's published schedule entries that overlap the time off, in the approval's batch.",
    }),
  })
  .openapi("TimeOffApprove");

export const DeclineBody = z.object({ reason: z.string().max(2000).optional() }).openapi("TimeOffDecline");

export const RequestListQuery = ListQuery.omit({ includeDeleted: true }).extend({
  status: z.enum(REQUEST_STATUSES).optional(),
  workerId: z.string().min(1).max(64).optional(),
  policyId: z.string().min(1).max(64).optional(),
  locationId: z.string().min(1).max(64).optional().openapi({ description: "Requests of staff assigned to this location" }),
  startTime: z
    .string()
    .max(40)
    .optional()
    .openapi({ description: "Overlap window start: YYYY-MM-DD (organization's zone) or an ISO instant" }),
  endTime: z.string().max(40).optional().openapi({ description: "Overlap window end (inclusive)" }),
});

export const TimeOffsQuery = ListQuery.omit({ includeDeleted: true }).extend({
  workerId: z.string().min(1).max(64).optional(),
  locationId: z
    .string()
    .min(1)
    .max(64)
    .optional()
    .openapi({ description: "Only time off taken from this location (the request's `locationId`)." }),
  startTime: z.string().max(40).optional().openapi({ description: "YYYY-MM-DD (organization's zone) or an ISO instant" }),
  endTime: z.string().max(40).optional().openapi({ description: "YYYY-MM-DD (organization's zone) or an ISO instant; inclusive" }),
});

export const RequestParams = OrganizationParams.extend({ id: idParam("id", "Time-off request id") });
