import { z } from "@hono/zod-openapi";
import { PHOTO_TYPES } from "@/domain/photo-content";
import { parseSources } from "@/domain/punch-source";
import { ListQuery } from "@/platform/schemas/list-query";
import { DateOrInstant, Name, Timestamp, UtcOffset, WallClockInput } from "@/platform/schemas/validation";
import { CustomFieldValuesInput, Shift } from "@/wire/shift.schemas";

const Id = z.string().min(1).max(64).openapi({ example: "0193a5a0-7c1e-7b2a-9d4e-1f2a3b4c5d6e" });

import { BusinessDate } from "@/wire/timesheet-export.schemas";

export const OrganizationQuery = z.object({
  organizationId: Id.optional().openapi({
    description: "The organization. Required with a partner-level token; otherwise the token's own (another is 404).",
  }),
});

export const BooleanQuery = z
  .enum(["true", "false"])
  .transform((v) => v === "true")
  .openapi({ description: "`true` or `false`." });

export const RangeQuery = {
  startDate: DateOrInstant(
    "First business date (YYYY-MM-DD, inclusive: shifts that started on it in their location's local time) or an " +
      "ISO 8601 instant compared with the shift's start.",
    "2026-03-01",
  ),
  endDate: DateOrInstant(
    "Last business date (inclusive) or an ISO 8601 instant (inclusive). At most 366 days after startDate.",
    "2026-03-31",
  ),
};

export const FilterQuery = {
  locationId: Id.optional().openapi({ description: "Only shifts at this location." }),
  employeeId: Id.optional().openapi({ description: "Only this staff member's shifts." }),
  roleId: Id.optional().openapi({ description: "Only shifts worked in this role." }),
  flagged: BooleanQuery.optional().openapi({ description: "true: only shifts with trust flags; false: only those without." }),
  open: BooleanQuery.optional().openapi({ description: "true: only open shifts (not clocked out); false: only closed ones." }),
  source: z
    .string()
    .max(100)
    .transform((text, ctx) => {
      const parsed = parseSources(text);
      if (parsed.ok) return parsed.sources;
      ctx.addIssue({
        code: "custom",
        message: `not a source: ${parsed.unknown.join(", ") || "(empty)"} (MOBILE, KIOSK, MANUAL, API, AUTO)`,
      });
      return z.NEVER;
    })
    .optional()
    .openapi({
      type: "string",
      example: "KIOSK,MOBILE",
      description:
        "Only shifts whose clock-in or clock-out came from one of these sources (comma-separated: MOBILE, KIOSK, MANUAL, " +
        "API, AUTO; case-insensitive). An unknown source is 400 naming `source`.",
    }),
};

export const TimesheetQuery = OrganizationQuery.extend({
  ...RangeQuery,
  ...FilterQuery,
  limit: ListQuery.shape.limit,
  cursor: ListQuery.shape.cursor,
  updatedSince: ListQuery.shape.updatedSince,
  includeDeleted: ListQuery.shape.includeDeleted,
});

export const LocationTimesheetQuery = TimesheetQuery.omit({ organizationId: true, locationId: true });

export const TimesheetTotals = z
  .object({
    count: z.number().int().openapi({ description: "Shifts in the whole filtered range." }),
    duration: z.number().int().openapi({ description: "Minutes." }),
    totalPaidBreaks: z.number().int().openapi({ description: "Minutes." }),
    totalUnpaidBreaks: z.number().int().openapi({ description: "Minutes." }),
    payableDuration: z.number().int().openapi({ description: "Minutes: duration − totalUnpaidBreaks." }),
    amount: z.number().openapi({
      description:
        "Σ of each shift's payable hours × hourlyWage, rounded half away from zero per shift to the minor units of the organization's currency (ISO 4217: cents; whole yen for JPY; a dinar's thousandths for BHD).",
      example: 1234.5,
    }),
  })
  .openapi("TimesheetTotals");

export const TimesheetListing = z
  .object({
    shifts: z.array(Shift).openapi({ description: 'One page, by business date then id; `Link: rel="next"` when more remain.' }),
    lockedDays: z.array(BusinessDate).openapi({ description: "Dates in the range locked at any location in the filter." }),
    totals: TimesheetTotals,
  })
  .openapi("TimesheetListing");

const WallClock = WallClockInput.openapi({
  description:
    "Local wall-clock time at the location written with a `Z` suffix, as the wire shows it: not UTC (the stated " +
    "contract); the instant is this time − utcOffset minutes.",
  example: "2026-03-14T09:00:00Z",
});

const ManualUtcOffset = UtcOffset.openapi({
  description:
    "Minutes east of UTC (a number or an integer string). Omitted or null: each time is read in the location's zone " +
    "at that moment (DST-correct).",
});

export const ManualBreak = z
  .object({
    startTime: WallClock,
    endTime: WallClock,
    typeId: Id.optional().openapi({ description: "A break type of the shift's location: name, paid and settings come from it." }),
    name: Name.max(100).optional().openapi({ description: 'Without typeId; default "Break".' }),
    paid: z.boolean().optional().openapi({ description: "Without typeId; default false (unpaid)." }),
  })
  .openapi("ManualShiftBreak");

const COST_CODE = "The cost code the shift is charged to: an active code assigned to the staff member (else 422 COST_CODE_NOT_ASSIGNED).";

export const ManualShiftCreate = z
  .object({
    employeeId: Id,
    locationId: Id,
    roleId: Id,
    costCodeId: Id.optional().openapi({ description: COST_CODE }),
    customFields: CustomFieldValuesInput.optional(),
    startTime: WallClock,
    endTime: WallClock,
    utcOffset: ManualUtcOffset,
    hourlyWage: z
      .number()
      .min(0)
      .max(100_000)
      .optional()
      .openapi({ description: "Default: the role's wage, else the staff member's. A salaried staff member's shift takes none (400)." }),
    breaks: z.array(ManualBreak).max(20).default([]),
  })
  .openapi("ManualShiftCreate");

export const ShiftPatch = z
  .object({
    roleId: Id.optional(),
    costCodeId: Id.nullable()
      .optional()
      .openapi({ description: `${COST_CODE} Null removes the shift's code; omitted keeps it.` }),
    customFields: CustomFieldValuesInput.optional(),
    startTime: WallClock.optional(),
    endTime: WallClock.optional(),
    utcOffset: UtcOffset.openapi({
      description: "Minutes east of UTC (a number or an integer string). Omitted or null: the shift's own utcOffset.",
    }),
    hourlyWage: z.number().min(0).max(100_000).optional(),
    breaks: z.array(ManualBreak).max(20).optional().openapi({ description: "Replaces every break of the shift." }),
  })
  .refine((body) => Object.values(body).some((v) => v !== undefined), "send at least one field")
  .openapi("ShiftPatch");

export const ShiftParams = z.object({ id: Id.openapi({ param: { name: "id", in: "path" }, description: "Shift id" }) });

export const ShiftPhoto = z
  .object({
    id: z.string(),
    shiftId: z.string(),
    employeeId: z.string().nullable(),
    locationId: z.string(),
    deviceId: z.string().openapi({ description: "The kiosk that took it." }),
    contentType: z.enum(PHOTO_TYPES),
    size: z.number().int().openapi({ description: "Bytes." }),
    sha256: z.string().openapi({ description: "SHA-256 of the image's bytes, hex." }),
    createdAt: Timestamp,
    url: z
      .string()
      .openapi({ description: "Serves the image without a token until urlExpiresAt (5 minutes); then 403 PHOTO_URL_EXPIRED." }),
    urlExpiresAt: Timestamp,
  })
  .openapi("ShiftPhoto");

export type ShiftPhoto = z.infer<typeof ShiftPhoto>;

export const DayAtLocationQuery = OrganizationQuery.extend({ date: BusinessDate, locationId: Id });

export const DeletedShifts = z.object({ deleted: z.number().int().openapi({ example: 12 }) }).openapi("DeletedShifts");

export const LockedDayBody = z.object({ date: BusinessDate, locationId: Id }).openapi("LockedDayRequest");

export const LockedDay = z
  .object({
    organizationId: z.string(),
    locationId: z.string(),
    date: BusinessDate,
    locked: z.boolean(),
    lockedBy: z.string().nullable().openapi({ description: "Staff member id, or partner:<id> for a partner's backend." }),
    lockedAt: Timestamp.nullable(),
  })
  .openapi("LockedDay");

export type TimesheetQueryInput = z.infer<typeof TimesheetQuery>;
export type ManualShiftInput = z.infer<typeof ManualShiftCreate>;
export type ShiftPatchInput = z.infer<typeof ShiftPatch>;
export type ManualBreakInput = z.infer<typeof ManualBreak>;
