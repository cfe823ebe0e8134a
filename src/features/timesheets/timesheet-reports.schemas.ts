import { z } from "@hono/zod-openapi";
import { ListQuery, queryInteger } from "@/platform/schemas/list-query";
import { UtcOffset } from "@/platform/schemas/validation";
import { BusinessDate } from "@/wire/timesheet-export.schemas";
import { FilterQuery, OrganizationQuery, RangeQuery } from "./timesheets.schemas";

export const ExportQuery = OrganizationQuery.extend({
  ...RangeQuery,
  ...FilterQuery,
  format: z.enum(["csv", "json"]).default("csv").openapi({ description: "csv (RFC 4180, default) or json (an array)." }),
});

/** Ids given as repeated parameters (`employees[]=a&employees[]=b` or `employees=a&employees=b`) or comma-separated. */
const IdList = z
  .union([z.string(), z.array(z.string())])
  .transform((v) =>
    (Array.isArray(v) ? v : [v])
      .flatMap((s) => s.split(","))
      .map((s) => s.trim())
      .filter(Boolean),
  )
  .pipe(z.array(z.string().max(64)).max(200))
  .optional();

export const ReportListQuery = {
  employees: IdList.openapi({ description: "Only these staff members (repeat the parameter, or comma-separate)." }),
  "employees[]": IdList.openapi({ description: "Same as employees, in the bracket style." }),
  locations: IdList.openapi({ description: "Only these locations (repeat the parameter, or comma-separate)." }),
  "locations[]": IdList.openapi({ description: "Same as locations, in the bracket style." }),
};

export const ReportQuery = OrganizationQuery.extend({
  ...RangeQuery,
  ...FilterQuery,
  ...ReportListQuery,
  utcOffset: UtcOffset.openapi({
    description: "Count each shift on its start's date at this offset (minutes east of UTC, an integer) instead of its business date.",
    example: -300,
  }),
  page: queryInteger(1, 100_000, 1, "1-based page of days (decimal digits)."),
  limit: ListQuery.shape.limit,
});

export const EmployeeReportQuery = OrganizationQuery.extend({
  ...RangeQuery,
  ...FilterQuery,
  ...ReportListQuery,
  limit: ListQuery.shape.limit,
  cursor: ListQuery.shape.cursor,
});

const HoursWorked = z.string().openapi({ example: "7.5", description: "Payable hours as a decimal string." });

export const ReportDay = z
  .object({
    day: BusinessDate,
    employeeId: z.string(),
    externalId: z.string().nullable(),
    locationId: z.string(),
    organizationId: z.string(),
    duration: z.number().int().openapi({ description: "Minutes." }),
    totalUnpaidBreaks: z.number().int().openapi({ description: "Minutes." }),
    hoursWorked: HoursWorked,
    amount: z.number().openapi({
      description:
        "Σ of its shifts' payable hours × hourlyWage, each rounded half away from zero per shift to the minor units of the organization's currency (ISO 4217: cents; whole yen for JPY; a dinar's thousandths for BHD).",
    }),
    locked: z.boolean(),
  })
  .openapi("TimesheetReportDay");

export const Report = z
  .object({
    days: z.array(ReportDay).openapi({ description: "One row per day, staff member and location, by day; one page." }),
    totals: z
      .object({
        duration: z.number().int(),
        totalUnpaidBreaks: z.number().int(),
        hoursWorked: HoursWorked,
        amount: z.number().openapi({ description: "The sum of every day's amount." }),
      })
      .openapi({ description: "Over the whole filtered range, not just this page." }),
  })
  .openapi("TimesheetReport");

export const EmployeeReport = z
  .object({
    employeeId: z.string(),
    externalId: z.string().nullable(),
    name: z.string().nullable(),
    shifts: z.number().int(),
    duration: z.number().int(),
    totalPaidBreaks: z.number().int(),
    totalUnpaidBreaks: z.number().int(),
    payableDuration: z.number().int(),
    hoursWorked: HoursWorked,
    amount: z.number().openapi({
      description:
        "Σ of its shifts' payable hours × hourlyWage, each rounded half away from zero per shift to the minor units of the organization's currency (ISO 4217: cents; whole yen for JPY; a dinar's thousandths for BHD).",
    }),
    flaggedShifts: z.number().int(),
  })
  .openapi("TimesheetEmployeeReport");

export type ReportQueryInput = z.infer<typeof ReportQuery>;
export type EmployeeReportQueryInput = z.infer<typeof EmployeeReportQuery>;
