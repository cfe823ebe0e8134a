import type { availabilities } from "@db/schema";
import { z } from "@hono/zod-openapi";
import { AVAILABILITY_TYPES } from "@/domain/availability";
import { PageQuery } from "@/platform/http/pagination";
import { idParam, OrganizationParams, queryIdParam } from "@/platform/openapi/helpers";
import { iso } from "@/platform/schemas/time";
import { CalendarDate, Timestamp, TimeZone, UtcTime, WallClockInput } from "@/platform/schemas/validation";

type AvailabilityRow = typeof availabilities.$inferSelect;

const wallClock = (what: string) =>
  Timestamp.openapi({ description: `${what}: local wall-clock time in \`timezone\`, written with a Z suffix (not UTC).` });

const recurrenceNote =
  "An RFC 5545 RRULE without DTSTART (startTime is the first occurrence), FREQ=DAILY, WEEKLY, MONTHLY or YEARLY, " +
  "read in local wall-clock time (a weekly 09:00–17:00 stays 09:00 local across DST; UNTIL compares with local " +
  "times too). Null: a one-off.";

export const Availability = z
  .object({
    id: z.string(),
    employeeId: z.string(),
    type: z.enum(AVAILABILITY_TYPES),
    startTime: wallClock("The first occurrence's start"),
    endTime: wallClock("The first occurrence's end"),
    timezone: z.string().openapi({ example: "America/New_York" }),
    recurrence: z.string().nullable().openapi({ example: "FREQ=WEEKLY;BYDAY=MO,WE;UNTIL=20270101T000000Z", description: recurrenceNote }),
    note: z.string().nullable(),
    createdAt: Timestamp,
    updatedAt: Timestamp,
  })
  .openapi("Availability");

const Recurrence = z.string().trim().min(1).max(500).openapi({ example: "FREQ=WEEKLY;BYDAY=MO,WE", description: recurrenceNote });
const Note = z.string().max(1000);

export const AvailabilityCreate = z
  .object({
    type: z.enum(AVAILABILITY_TYPES),
    startTime: WallClockInput,
    endTime: WallClockInput,
    timezone: TimeZone.optional().openapi({ description: "IANA time zone; default the organization's." }),
    recurrence: Recurrence.nullable().default(null),
    note: Note.nullable().default(null),
  })
  .openapi("AvailabilityCreate");

export const AvailabilityPatch = z
  .object({
    type: z.enum(AVAILABILITY_TYPES).optional(),
    startTime: WallClockInput.optional(),
    endTime: WallClockInput.optional(),
    timezone: TimeZone.optional(),
    recurrence: Recurrence.nullable().optional(),
    note: Note.nullable().optional(),
  })
  .refine((body) => Object.values(body).some((v) => v !== undefined), "send at least one field")
  .openapi("AvailabilityPatch");

export type AvailabilityCreateInput = z.infer<typeof AvailabilityCreate>;
export type AvailabilityPatchInput = z.infer<typeof AvailabilityPatch>;

export const StaffAvailabilityParams = OrganizationParams.extend({ id: idParam("id", "Staff member id") });
export const AvailabilityParams = StaffAvailabilityParams.extend({ availabilityId: idParam("availabilityId", "Availability id") });

export const AvailabilityRangeQuery = z.object({
  ...PageQuery.shape,
  startDate: CalendarDate.openapi({ param: { name: "startDate", in: "query" } }),
  endDate: CalendarDate.openapi({ param: { name: "endDate", in: "query" } }),
  employeeId: queryIdParam("employeeId"),
  locationId: queryIdParam("locationId", "Staff members assigned to this location."),
});

export const AvailabilityOccurrence = z
  .object({
    availabilityId: z.string(),
    employeeId: z.string(),
    type: z.enum(AVAILABILITY_TYPES),
    startTime: wallClock("The occurrence's start"),
    endTime: wallClock("The occurrence's end"),
    utcStartTime: UtcTime("The occurrence's start"),
    utcEndTime: UtcTime("The occurrence's end"),
  })
  .openapi("AvailabilityOccurrence");

export const serializeAvailability = (row: AvailabilityRow): z.infer<typeof Availability> => ({
  id: row.id,
  employeeId: row.employeeId,
  type: row.type as z.infer<typeof Availability>["type"],
  startTime: iso(row.startTime),
  endTime: iso(row.endTime),
  timezone: row.timezone,
  recurrence: row.recurrence,
  note: row.note,
  createdAt: iso(row.createdAt),
  updatedAt: iso(row.updatedAt),
});
