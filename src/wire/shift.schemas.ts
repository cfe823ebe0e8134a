import type { shiftBreaks, shiftEvents, shifts } from "@db/schema";
import { z } from "@hono/zod-openapi";
import { MAX_OPTIONS, MAX_VALUE_LENGTH } from "@/domain/custom-fields";
import { localWallClock } from "@/domain/local-time";
import { PUNCH_SOURCES } from "@/domain/punch-source";
import { wireWage } from "@/domain/shift-wage";
import { iso, isoOrNull } from "@/platform/schemas/time";
import {
  Timestamp,
  TimestampOrNull,
  TrustFlag,
  UtcTime,
  UtcTimeOrNull,
  WallClockTime,
  WallClockTimeOrNull,
} from "@/platform/schemas/validation";

export type ShiftRow = typeof shifts.$inferSelect;
export type ShiftBreakRow = typeof shiftBreaks.$inferSelect;
export type ShiftEventRow = typeof shiftEvents.$inferSelect;

/** The values of a shift's custom fields, as writes give them: a value sets a field, null removes it. */
export const CustomFieldValuesInput = z
  .record(z.string().min(1).max(64), z.string().min(1).max(MAX_VALUE_LENGTH).nullable())
  .refine((values) => Object.keys(values).length <= MAX_OPTIONS, `at most ${MAX_OPTIONS} fields`)
  .openapi("CustomFieldValuesInput", {
    description:
      "Values of the organization's custom fields, keyed by field id: a value (1 to 500 characters) sets a field, null " +
      "removes it. A value must name an active field and fit it (LIST: one of its options; TEXT: matching its pattern " +
      "as a whole), else 400 VALIDATION_FAILED naming `customFields.<fieldId>`.",
    example: { "0193a5a0-7c1e-7b2a-9d4e-1f2a3b4c5d6f": "AB-1234" },
  });

export const ShiftBreak = z
  .object({
    startTime: WallClockTime("Start of the break"),
    endTime: WallClockTimeOrNull("End of the break; null while it is open"),
    typeId: z.string().nullable(),
    paid: z.boolean(),
    name: z.string().openapi({ example: "Lunch" }),
    mandatory: z.boolean(),
    frequencyMinutes: z.number().int().openapi({ example: 360 }),
    durationInSettingsMinutes: z.number().int().openapi({ example: 30 }),
    automatic: z.boolean().openapi({
      description:
        "True only on a shift closed before breaks not taken stopped being deducted (an unpaid deduction for a mandatory break not taken); none is added now, and an edit of the shift drops it.",
    }),
    utcStartTime: UtcTime("Start of the break"),
    utcEndTime: UtcTimeOrNull("End of the break; null while it is open"),
  })
  .openapi("ShiftBreak");

export const PunchSource = z.enum(PUNCH_SOURCES).openapi("PunchSource", {
  description:
    "Where a shift event came from: MOBILE (a staff member's own token: the phone), KIOSK (a location's kiosk, with its " +
    "deviceId), MANUAL (a timesheet entry or edit with a staff member's token: a manager), API (an organization-level " +
    "token: the integrator's backend, punch or timesheet write), AUTO (the attendance pass closing a forgotten shift).",
});

const DeviceId = z.string().nullable().openapi({ description: "The kiosk that recorded the event (source KIOSK); null otherwise." });

export const ShiftEvent = z
  .object({
    kind: z.enum(["clock_in", "clock_out", "break_start", "break_end"]),
    occurredAt: Timestamp.openapi({ description: "When it happened (the client's occurredAt, or receipt)." }),
    receivedAt: Timestamp.openapi({ description: "When the service received it." }),
    latitude: z.number().nullable(),
    longitude: z.number().nullable(),
    accuracyCentimeters: z.number().int().nullable(),
    distanceCentimeters: z.number().int().nullable(),
    verdict: z.enum(["inside", "outside", "undetermined", "unfenced"]),
    flags: z.array(TrustFlag),
    source: PunchSource,
    deviceId: DeviceId,
    photoId: z.string().nullable().openapi({ description: "The kiosk photo taken with the punch (GET /timesheets/{id}/photos)." }),
  })
  .openapi("ShiftEvent");

export const Shift = z
  .object({
    id: z.string().openapi({ example: "0193a5a0-7c1e-7b2a-9d4e-1f2a3b4c5d6e" }),
    employeeId: z.string(),
    locationId: z.string(),
    roleId: z.string(),
    costCodeId: z.string().nullable().openapi({ description: "The cost code the shift's time is charged to (null: none)." }),
    customFields: z.record(z.string(), z.string()).openapi({
      description:
        "The values of the organization's custom fields (GET …/custom-fields), keyed by field id. Values of fields " +
        "made inactive or deleted since stay.",
      example: { "0193a5a0-7c1e-7b2a-9d4e-1f2a3b4c5d6f": "AB-1234" },
    }),
    startTime: WallClockTime("Start of the shift"),
    endTime: WallClockTimeOrNull("End of the shift; null while it is open"),
    breaks: z.array(ShiftBreak),
    hourlyWage: z
      .number()
      .nullable()
      .openapi({
        example: 18.5,
        description:
          "The wage the shift is paid at, resolved at its start (the staff member's most specific wage rate effective that " +
          "day, else the role's, else the staff member's, unless set by hand) and kept — a wage rate written later with an " +
          "effectiveFrom on or before that day re-rates a resolved wage, never one set by hand. Null: not paid by the hour — " +
          "the staff member was salaried (wageType salary) when the shift was recorded, as their pay lines' rate is null; " +
          "such a shift adds nothing to timesheet amounts.",
      }),
    wageRateId: z.string().nullable().openapi({
      description:
        "The wage rate hourlyWage was resolved from (GET …/wage-rates/resolve), or null: the role's or staff member's wage, or a wage set by hand.",
    }),
    totalPaidBreaks: z.number().int().openapi({ description: "Minutes." }),
    totalUnpaidBreaks: z.number().int().openapi({ description: "Minutes." }),
    duration: z.number().int().openapi({ description: "Elapsed minutes from start to end (real time, DST-safe)." }),
    payableDuration: z.number().int().openapi({ description: "duration − totalUnpaidBreaks, in minutes." }),
    utcOffset: z.number().int().openapi({ description: "Minutes east of UTC at the shift's start.", example: -240 }),
    utcStartTime: UtcTime("Start of the shift"),
    utcEndTime: UtcTimeOrNull("End of the shift; null while it is open"),
    locked: z.boolean(),
    active: z.boolean().openapi({ description: "True while the shift is open." }),
    flags: z.array(TrustFlag).openapi({ description: "Union of the trust flags of the shift's events." }),
    manualEntry: z.boolean(),
    clockInSource: PunchSource.openapi({ description: "Where the clock-in (or the manual entry) came from." }),
    clockInDeviceId: DeviceId,
    clockOutSource: z.enum(PUNCH_SOURCES).nullable().openapi({
      description: "Where the clock-out came from (AUTO: the attendance pass); null while the shift is open. Each break's is in `events`.",
    }),
    clockOutDeviceId: DeviceId,
    businessDate: z.string().openapi({ example: "2026-03-14", description: "Local date the shift started on." }),
    events: z.array(ShiftEvent).optional(),
    createdAt: Timestamp,
    updatedAt: Timestamp,
    deletedAt: TimestampOrNull,
  })
  .openapi("Shift");

export type ShiftWire = z.infer<typeof Shift>;

const local = (instant: Date | null, offset: number) => (instant ? localWallClock(instant, offset) : null);

export const serializeShiftBreak = (row: ShiftBreakRow, utcOffset: number): z.infer<typeof ShiftBreak> => ({
  startTime: localWallClock(row.startAt, utcOffset),
  endTime: local(row.endAt, utcOffset),
  typeId: row.typeId,
  paid: row.paid,
  name: row.name,
  mandatory: row.mandatory,
  frequencyMinutes: row.frequencyMinutes,
  durationInSettingsMinutes: row.durationInSettingsMinutes,
  automatic: row.automatic,
  utcStartTime: iso(row.startAt),
  utcEndTime: isoOrNull(row.endAt),
});

export const serializeShiftEvent = (row: ShiftEventRow): z.infer<typeof ShiftEvent> => ({
  kind: row.kind,
  occurredAt: iso(row.occurredAt),
  receivedAt: iso(row.receivedAt),
  latitude: row.latitude,
  longitude: row.longitude,
  accuracyCentimeters: row.accuracyCentimeters,
  distanceCentimeters: row.distanceCentimeters,
  verdict: row.verdict as z.infer<typeof ShiftEvent>["verdict"],
  flags: row.flags,
  source: row.source,
  deviceId: row.deviceId,
  photoId: row.photoId,
});

export function serializeShift(
  row: ShiftRow,
  breaks: ShiftBreakRow[],
  options: { locked?: boolean; events?: ShiftEventRow[] } = {},
): ShiftWire {
  return {
    id: row.id,
    employeeId: row.employeeId,
    locationId: row.locationId,
    roleId: row.roleId,
    costCodeId: row.costCodeId,
    customFields: row.customFields,
    startTime: localWallClock(row.startAt, row.utcOffset),
    endTime: local(row.endAt, row.utcOffset),
    breaks: breaks.map((b) => serializeShiftBreak(b, row.utcOffset)),
    hourlyWage: wireWage(row),
    wageRateId: row.wageRateId,
    totalPaidBreaks: row.totalPaidBreaks,
    totalUnpaidBreaks: row.totalUnpaidBreaks,
    duration: row.duration,
    payableDuration: row.payableDuration,
    utcOffset: row.utcOffset,
    utcStartTime: iso(row.startAt),
    utcEndTime: isoOrNull(row.endAt),
    locked: options.locked ?? false,
    active: row.endAt === null && row.deletedAt === null,
    flags: row.flags,
    manualEntry: row.manualEntry,
    clockInSource: row.clockInSource,
    clockInDeviceId: row.clockInDeviceId,
    clockOutSource: row.clockOutSource,
    clockOutDeviceId: row.clockOutDeviceId,
    businessDate: row.businessDate,
    ...(options.events ? { events: options.events.map(serializeShiftEvent) } : {}),
    createdAt: iso(row.createdAt),
    updatedAt: iso(row.updatedAt),
    deletedAt: isoOrNull(row.deletedAt),
  };
}
