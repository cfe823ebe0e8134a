import type { availabilities } from "@db/schema";
import { z } from "@hono/zod-openapi";
import { AVAILABILITY_TYPES, MAX_EXDATES, normalizeExdates } from "@/domain/availability";
import { idParam, OrganizationParams, queryIdParam } from "@/platform/openapi/helpers";
import { PageQuery } from "@/platform/schemas/list-query";
import { iso } from "@/platform/schemas/time";
import { CalendarDate, Timestamp, TimeZone, UtcTime, WallClockInput } from "@/platform/schemas/validation";

type AvailabilityRow = typeof availabilities.$inferSelect;

const wallClock = (what: string) =>
  Timestamp.openapi({ description: `${what}: local wall-clock time in \`timezone\`, written with a Z suffix (not UTC).` });

const recurrenceNote =
  "An RFC 5545 RRULE without DTSTART (startTime is the first occurrence), FREQ=DAILY, WEEKLY, MONTHLY or YEARLY, " +
  "read in local wall-clock time (a weekly 09:00–17:00 stays 09:00 local across DST; UNTIL compares with local " +
  "times too). Names and values are read in any case and stored in the canonical upper-case form (`RRULE:` " +
  "dropped). Refused (400 naming `recurrence`): a part named twice, an unknown part, BYHOUR/BYMINUTE/BYSECOND, " +
  "COUNT with UNTIL, values out of range (INTERVAL 1–365, COUNT 1–800, BYMONTH 1–12, BYMONTHDAY ±1–31, " +
  "BYYEARDAY ±1–366, BYWEEKNO ±1–53, BYSETPOS ±1–366, WKST a day), BYDAY numbered except with MONTHLY or YEARLY, " +
  "BYSETPOS without another BYxxx, UNTIL not a real date from 1970 to 2200 or before startTime, and a rule that " +
  "matches no date within 10 years. Null: a one-off.";
const exdatesNote =
  "Local dates (YYYY-MM-DD, in the rule's zone) on which no occurrence starts: skipped by the expansion, eligibility " +
  `and the scheduling guards alike. Stored unique and in order; at most ${MAX_EXDATES}.`;

export const Availability = z
  .object({
    id: z.string(),
    employeeId: z.string(),
    type: z.enum(AVAILABILITY_TYPES),
    startTime: wallClock("The first occurrence's start"),
    endTime: wallClock("The first occurrence's end"),
    timezone: z.string().openapi({ example: "America/New_York" }),
    recurrence: z.string().nullable().openapi({ example: "FREQ=WEEKLY;BYDAY=MO,WE;UNTIL=20270101T000000Z", description: recurrenceNote }),
    exdates: z.array(z.string().openapi({ format: "date" })).openapi({ example: ["2026-12-14"], description: exdatesNote }),
    note: z.string().nullable(),
    createdAt: Timestamp,
    updatedAt: Timestamp,
  })
  .openapi("Availability");

const Recurrence = z.string().trim().min(1).max(500).openapi({ example: "FREQ=WEEKLY;BYDAY=MO,WE", description: recurrenceNote });
const Note = z.string().max(1000);
const Exdates = z
  .array(CalendarDate)
  .max(MAX_EXDATES)
  .transform(normalizeExdates)
  .openapi({ example: ["2026-12-14"], description: exdatesNote });

export const AvailabilityCreate = z
  .object({
    type: z.enum(AVAILABILITY_TYPES),
    startTime: WallClockInput,
    endTime: WallClockInput,
    timezone: TimeZone.optional().openapi({ description: "IANA time zone; default the organization's." }),
    recurrence: Recurrence.nullable().default(null),
    exdates: Exdates.default([]),
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
    exdates: Exdates.optional(),
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
  exdates: row.exdates,
  note: row.note,
  createdAt: iso(row.createdAt),
  updatedAt: iso(row.updatedAt),
});
