import { z } from "@hono/zod-openapi";
import { OrganizationParams, queryIdParam } from "@/platform/openapi/helpers";
import { PageQuery } from "@/platform/schemas/list-query";
import { CalendarDate } from "@/platform/schemas/validation";

export const FairWorkweekReportWeek = z
  .object({
    weekStart: CalendarDate.openapi({ description: "The workweek's first day (the organization's pay workweekStartsOn)." }),
    weekEnd: CalendarDate.openapi({ description: "The workweek's last day." }),
    scheduledHours: z
      .number()
      .openapi({ description: "Hours of the worker's published entries starting (local date) in the workweek, to 2 decimals." }),
    estimate: z
      .object({ weeklyHoursMin: z.number(), weeklyHoursMax: z.number(), effectiveFrom: CalendarDate })
      .nullable()
      .openapi({ description: "The good-faith estimate in effect on the workweek's first day; null: none." }),
    outsideEstimate: z
      .boolean()
      .nullable()
      .openapi({ description: "scheduledHours < weeklyHoursMin or > weeklyHoursMax; null without an estimate." }),
    changes: z.number().int().openapi({ description: "Schedule changes recorded for the worker dated (entryDate) in the workweek." }),
    premiumHours: z.number().openapi({ description: "The sum of those changes' premium hours (paid at the workweek's regular rate)." }),
    premiumAmount: z.number().openapi({ description: "The sum of those changes' flat premium amounts." }),
    restPremiumHours: z.number().openapi({
      description:
        "Hours of the worker's REST pay lines dated in the workweek (GET /timesheets/pay: shifts worked inside the " +
        "rest window; Seattle's extra half of the hours inside it, 0 for a flat premium such as New York City's), to 4 decimals.",
    }),
    restPremiumAmount: z.number().openapi({
      description: "The amount of those REST pay lines (hours at the workweek's regular rate, or the flat premium), to the cent.",
    }),
    premiumsOwed: z
      .object({
        predictability: z.number().openapi({ description: "The amount of the worker's PREDICTABILITY pay lines dated in the workweek." }),
        rest: z.number().openapi({ description: "The amount of their REST pay lines: restPremiumAmount." }),
        total: z.number().openapi({ description: "predictability + rest, summed in cents." }),
      })
      .openapi({
        description:
          "The Fair Workweek premiums the workweek owes in money, as pay computes them: the amounts of the pay lines " +
          "(hours at the regular rate of the pay workweek, or without hours worked the hourly wage; flat amounts as " +
          "they are; a line without an amount, no hourly wage, adds nothing), each summed in cents.",
      }),
  })
  .openapi("FairWorkweekReportWeek");

export const FairWorkweekReportRow = z
  .object({
    employeeId: z.string(),
    weeks: z.array(FairWorkweekReportWeek).openapi({ description: "Every workweek touching [startDate, endDate], in order." }),
  })
  .openapi("FairWorkweekReportRow");

export const FairWorkweekReportQuery = z.object({
  ...PageQuery.shape,
  startDate: CalendarDate.openapi({ param: { name: "startDate", in: "query" } }),
  endDate: CalendarDate.openapi({ param: { name: "endDate", in: "query" } }),
  locationId: queryIdParam("locationId", "Only this location's staff, entries and changes."),
  employeeId: queryIdParam("employeeId", "Only this staff member."),
});

export const FairWorkweekReportParams = OrganizationParams;
