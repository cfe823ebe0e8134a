import { z } from "@hono/zod-openapi";
import { FIRST_YEAR, LAST_YEAR } from "@/domain/local-time";
import { HOLIDAY_OVERRIDES_MAX } from "@/domain/public-holidays";
import { idParam, OrganizationParams } from "@/platform/openapi/helpers";
import { iso } from "@/platform/schemas/time";
import { CalendarDate, Name, TimestampOrNull } from "@/platform/schemas/validation";

export const LocationHolidayParams = OrganizationParams.extend({ locationId: idParam("locationId", "Location id") });

export const HolidaysQuery = z.object({
  year: z
    .string()
    .regex(/^[0-9]{4}$/, "must be a year of four decimal digits")
    .transform(Number)
    .pipe(z.number().int().min(FIRST_YEAR).max(LAST_YEAR))
    .optional()
    .openapi({
      param: { name: "year", in: "query" },
      type: "integer",
      minimum: FIRST_YEAR,
      maximum: LAST_YEAR,
      example: 2026,
      description: "The calendar year (default: the current year, UTC).",
    }),
});

export const Holiday = z
  .object({
    date: z.string().openapi({ format: "date", example: "2026-12-25" }),
    name: z.string().openapi({ example: "Christmas Day" }),
    type: z.string().openapi({
      example: "public",
      description:
        "The dataset's type: public, bank, optional, school or observance (an added date: public). Pay treats public " +
        "and bank holidays as public holidays.",
    }),
  })
  .openapi("Holiday");

export const Holidays = z.array(Holiday).openapi("Holidays");

const AddedHoliday = z.object({ date: CalendarDate, name: Name.max(100).openapi({ example: "Show Day" }) });

export const HolidayOverridesPut = z
  .object({
    added: z
      .array(AddedHoliday)
      .max(HOLIDAY_OVERRIDES_MAX)
      .default([])
      .openapi({ description: "Dates that are public holidays at the location though the dataset lacks them." }),
    removed: z
      .array(CalendarDate)
      .max(HOLIDAY_OVERRIDES_MAX)
      .default([])
      .openapi({ description: "Dates whose dataset holidays are not observed at the location.", example: ["2026-11-03"] }),
  })
  .openapi("HolidayOverridesPut");

export const HolidayOverrides = z
  .object({
    locationId: z.string(),
    added: z.array(AddedHoliday),
    removed: z.array(z.string().openapi({ format: "date" })),
    updatedAt: TimestampOrNull,
  })
  .openapi("HolidayOverrides");

export const serializeHolidayOverrides = (
  locationId: string,
  row: { added: { date: string; name: string }[]; removed: string[]; updatedAt: Date } | undefined,
): z.infer<typeof HolidayOverrides> => ({
  locationId,
  added: row?.added ?? [],
  removed: row?.removed ?? [],
  updatedAt: row ? iso(row.updatedAt) : null,
});
