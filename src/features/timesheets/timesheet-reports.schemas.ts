import { z } from "@hono/zod-openapi";
import { PUNCH_SOURCES } from "@/domain/punch-source";
import { PunchSource } from "@/features/shifts/shifts.schemas";
import { ListQuery, queryInteger } from "@/platform/http/pagination";
import { TrustFlag, UtcOffset, UtcTime, UtcTimeOrNull } from "@/platform/schemas/validation";
import { BusinessDate, FilterQuery, OrganizationQuery, RangeQuery } from "./timesheets.schemas";

export const ExportQuery = OrganizationQuery.extend({
  ...RangeQuery,
  ...FilterQuery,
  format: z.enum(["csv", "json"]).default("csv").openapi({ description: "csv (RFC 4180, default) or json (an array)." }),
});

const LocalTime = z.string().openapi({ example: "2026-03-14T09:00:00.000", description: "Local wall-clock time, no zone suffix." });

export const ExportRecord = z
  .object({
    shiftId: z.string(),
    businessDate: BusinessDate,
    employeeId: z.string(),
    employeeExternalId: z.string().nullable(),
    employeePayrollId: z.string().nullable(),
    employeeName: z.string().nullable(),
    locationId: z.string(),
    locationExternalId: z.string().nullable(),
    locationName: z.string().nullable(),
    roleId: z.string(),
    roleExternalId: z.string().nullable(),
    roleName: z.string().nullable(),
    utcOffset: z.number().int(),
    localStartTime: LocalTime,
    localEndTime: LocalTime.nullable(),
    utcStartTime: UtcTime("Start of the shift"),
    utcEndTime: UtcTimeOrNull("End of the shift; null while it is open"),
    duration: z.number().int(),
    totalPaidBreaks: z.number().int(),
    totalUnpaidBreaks: z.number().int(),
    payableDuration: z.number().int(),
    payableHours: z.number().openapi({ example: 7.5 }),
    hourlyWage: z.number().nullable().openapi({ description: "Null: a salaried staff member's shift, not paid by the hour." }),
    amount: z.number().nullable().openapi({ example: 138.75, description: "Null with hourlyWage: not paid by the hour." }),
    flags: z.array(TrustFlag),
    manualEntry: z.boolean(),
    clockInSource: PunchSource,
    clockInDeviceId: z.string().nullable().openapi({ description: "The kiosk of a KIOSK clock-in." }),
    clockOutSource: z.enum(PUNCH_SOURCES).nullable().openapi({ description: "Null while the shift is open." }),
    clockOutDeviceId: z.string().nullable().openapi({ description: "The kiosk of a KIOSK clock-out." }),
    locked: z.boolean(),
    customFields: z.record(z.string(), z.string()).openapi({
      description: "The shift's custom field values, keyed by field id (in CSV: one column per active field, headed by its name).",
    }),
  })
  .openapi("TimesheetExportRecord");

export type ExportRecord = z.infer<typeof ExportRecord>;

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
    amount: z.number(),
    locked: z.boolean(),
  })
  .openapi("TimesheetReportDay");

export const Report = z
  .object({
    days: z.array(ReportDay).openapi({ description: "One row per day, staff member and location, by day; one page." }),
    totals: z
      .object({ duration: z.number().int(), totalUnpaidBreaks: z.number().int(), hoursWorked: HoursWorked, amount: z.number() })
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
    amount: z.number(),
    flaggedShifts: z.number().int(),
  })
  .openapi("TimesheetEmployeeReport");

export type ReportQueryInput = z.infer<typeof ReportQuery>;
export type EmployeeReportQueryInput = z.infer<typeof EmployeeReportQuery>;
