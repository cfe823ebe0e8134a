import { z } from "@hono/zod-openapi";
import { PUNCH_SOURCES } from "@/domain/punch-source";
import { CalendarDate, TrustFlag, UtcTime, UtcTimeOrNull } from "@/platform/schemas/validation";
import { PunchSource } from "./shift.schemas";

/** A timesheet export's record: what GET /timesheets/export and an export job's file carry, one per shift. */
export const BusinessDate = CalendarDate.openapi({ example: "2026-03-14", description: "A local business date." });

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
    amount: z.number().nullable().openapi({
      example: 138.75,
      description:
        "Payable hours × hourlyWage, rounded half away from zero per shift to the minor units of the organization's currency (ISO 4217: cents; whole yen for JPY; a dinar's thousandths for BHD); the CSV writes exactly those decimals (9.851, 7983, 138.75). Null with hourlyWage: not paid by the hour.",
    }),
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
