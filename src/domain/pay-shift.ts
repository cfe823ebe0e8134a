import type { PayShift } from "./pay-classification";

/** A shift row as the database keeps it: UTC instants, the offset at its start, breaks in epoch milliseconds. */
export interface StoredShiftForPay {
  id: string;
  employeeId: string;
  locationId: string;
  businessDate: string;
  startAt: Date;
  endAt: Date | null;
  utcOffset: number;
  hourlyWage: number | null;
  breaks: readonly { startAt: number; endAt: number | null; paid: boolean; automatic: boolean; durationInSettingsMinutes: number }[];
  /** The published schedule entry the shift answers and its scheduled minutes (absent: not read, so not judged). */
  scheduled?: { entryId: string; minutes: number } | null;
}

const MINUTE_MS = 60_000;

/**
 * The shift on its local wall clock, as pay reads it. Every instant moves by the start's offset, so a shift across
 * a DST change keeps its real length and its punches round on the clock the employee saw at clock-in.
 */
export function payShiftFromStored(row: StoredShiftForPay): PayShift {
  const local = (ms: number) => new Date(ms + row.utcOffset * MINUTE_MS);
  return {
    id: row.id,
    employeeId: row.employeeId,
    locationId: row.locationId,
    businessDate: row.businessDate,
    startTime: local(row.startAt.getTime()),
    endTime: row.endAt === null ? null : local(row.endAt.getTime()),
    hourlyWage: row.hourlyWage,
    ...(row.scheduled && { scheduleEntryId: row.scheduled.entryId, scheduledMinutes: row.scheduled.minutes }),
    breaks: row.breaks.map((b) => ({
      startTime: local(b.startAt),
      endTime: b.endAt === null ? null : local(b.endAt),
      paid: b.paid,
      automatic: b.automatic,
      durationInSettingsMinutes: b.durationInSettingsMinutes,
    })),
  };
}
