import type { attendanceExceptions, attendanceSettings } from "@db/schema";
import { z } from "@hono/zod-openapi";
import {
  ATTENDANCE_EXCEPTION_TYPES,
  ATTENDANCE_STATUSES,
  type AttendanceSettings,
  DEFAULT_ATTENDANCE_SETTINGS,
  SHORTEST_AUTO_CLOCK_OUT_MINUTES,
} from "@/domain/attendance";
import { idParam, OrganizationParams, queryIdParam } from "@/platform/openapi/helpers";
import { PageQuery } from "@/platform/schemas/list-query";
import { iso, isoOrNull } from "@/platform/schemas/time";
import { CalendarDate, Timestamp, TimestampOrNull } from "@/platform/schemas/validation";

export type AttendanceSettingsRow = typeof attendanceSettings.$inferSelect;
export type AttendanceExceptionRow = typeof attendanceExceptions.$inferSelect;

const minutes = (max: number, description: string) => z.number().int().min(0).max(max).openapi({ description });

const settingsFields = {
  lateGraceMinutes: minutes(240, "A clock-in up to this many minutes after the entry's start is on time (default 5)."),
  earlyLeaveGraceMinutes: minutes(240, "A clock-out up to this many minutes before the entry's end is on time (default 5)."),
  noShowAfterMinutes: minutes(1440, "No clock-in this many minutes after a published entry's start is a NO_SHOW (default 30).").min(1),
  autoClockOutAfterMinutes: minutes(
    2880,
    "A shift still open this long after it started is closed by the attendance pass (default 960; null: never).",
  )
    .min(SHORTEST_AUTO_CLOCK_OUT_MINUTES)
    .nullable(),
};

export const AttendanceSettingsSchema = z.object({ ...settingsFields, updatedAt: Timestamp }).openapi("AttendanceSettings");

export const AttendanceSettingsPatch = z
  .object(settingsFields)
  .partial()
  .refine((patch) => Object.keys(patch).length > 0, { message: "name at least one setting" })
  .openapi("AttendanceSettingsPatch");
export type AttendanceSettingsPatchInput = z.infer<typeof AttendanceSettingsPatch>;

export const AttendanceException = z
  .object({
    id: z.string(),
    organizationId: z.string(),
    locationId: z.string(),
    employeeId: z.string(),
    type: z.enum(ATTENDANCE_EXCEPTION_TYPES),
    businessDate: CalendarDate.openapi({ description: "The local date of the shift, or of the entry's start for NO_SHOW." }),
    scheduleEntryId: z.string().nullable().openapi({ description: "The published entry it is measured against, if any." }),
    shiftId: z.string().nullable().openapi({ description: "The shift it is about; null for NO_SHOW." }),
    minutes: z
      .number()
      .int()
      .nullable()
      .openapi({
        description:
          "LATE_CLOCK_IN: minutes after the entry's start; EARLY_CLOCK_OUT: minutes before its end; NO_SHOW: the entry's " +
          "minutes; MISSED_CLOCK_OUT: the minutes the closed shift recorded; MISSED_MEAL_BREAK: the workday's payable " +
          "minutes beyond the missed meal period's afterMinutes, or (a mandatory break type not taken) the shift's " +
          "minutes beyond the type's frequencyMinutes; REST_TOO_SHORT: minutes short of the pack's rest; " +
          "DAILY_MAXIMUM_EXCEEDED: minutes over the day's cap; WEEKLY_MAXIMUM_EXCEEDED: minutes the week is over its cap; " +
          "MONTHLY_OVERTIME_CAP_EXCEEDED: minutes of the month's overtime over the cap; BREAK_TOO_SHORT: minutes of break short; " +
          "WEEKLY_AVERAGE_EXCEEDED: minutes a week over the average; MINOR_HOURS: minutes over a minor's cap (null: " +
          "outside the allowed hours of the day); UNSCHEDULED_SHIFT: null.",
      }),
    status: z.enum(ATTENDANCE_STATUSES),
    note: z.string().nullable(),
    detectedAt: Timestamp,
    resolvedAt: TimestampOrNull,
    resolvedBy: z.string().nullable().openapi({ description: "Who resolved it: a staff member's id, or the partner's." }),
  })
  .openapi("AttendanceException");

export const AttendanceExceptionPatch = z
  .object({
    status: z.enum(ATTENDANCE_STATUSES).openapi({ description: "RESOLVED or EXCUSED; OPEN reopens it." }),
    note: z
      .string()
      .trim()
      .min(1)
      .max(1000)
      .optional()
      .openapi({ description: "Kept when none is sent; to excuse, one must be sent or stored." }),
  })
  .openapi("AttendanceExceptionPatch");

export const AttendanceExceptionListQuery = z.object({
  ...PageQuery.shape,
  startDate: CalendarDate.openapi({ param: { name: "startDate", in: "query" } }),
  endDate: CalendarDate.openapi({ param: { name: "endDate", in: "query" } }),
  locationId: queryIdParam("locationId", "Only this location's."),
  employeeId: queryIdParam("employeeId", "Only this staff member's."),
  type: z
    .enum(ATTENDANCE_EXCEPTION_TYPES)
    .optional()
    .openapi({ param: { name: "type", in: "query" } }),
  status: z
    .enum(ATTENDANCE_STATUSES)
    .optional()
    .openapi({ param: { name: "status", in: "query" } }),
});

export const AttendanceExceptionParams = OrganizationParams.extend({ id: idParam("id", "Attendance exception id") });

/** The stored settings, or the defaults for an organization that never changed them. */
export const settingsOf = (row: AttendanceSettingsRow | undefined): AttendanceSettings =>
  row
    ? {
        lateGraceMinutes: row.lateGraceMinutes,
        earlyLeaveGraceMinutes: row.earlyLeaveGraceMinutes,
        noShowAfterMinutes: row.noShowAfterMinutes,
        autoClockOutAfterMinutes: row.autoClockOutAfterMinutes,
      }
    : DEFAULT_ATTENDANCE_SETTINGS;

export const serializeAttendanceException = (row: AttendanceExceptionRow): z.infer<typeof AttendanceException> => ({
  id: row.id,
  organizationId: row.organizationId,
  locationId: row.locationId,
  employeeId: row.employeeId,
  type: row.type as z.infer<typeof AttendanceException>["type"],
  businessDate: row.businessDate,
  scheduleEntryId: row.scheduleEntryId,
  shiftId: row.shiftId,
  minutes: row.minutes,
  status: row.status as z.infer<typeof AttendanceException>["status"],
  note: row.note,
  detectedAt: iso(row.detectedAt),
  resolvedAt: isoOrNull(row.resolvedAt),
  resolvedBy: row.resolvedBy,
});

export const serializeAttendanceSettings = (row: AttendanceSettingsRow | undefined, organizationCreatedAt: Date) => ({
  ...settingsOf(row),
  updatedAt: iso(row?.updatedAt ?? organizationCreatedAt),
});
