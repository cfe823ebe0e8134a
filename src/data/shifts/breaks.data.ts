import type { ShiftBreak } from "@/domain/shift-totals";
import type { ShiftBreakRow } from "@/wire/shift.schemas";

/** The domain's view of a stored break. */
export const toDomainBreak = (row: ShiftBreakRow): ShiftBreak => ({
  id: row.id,
  startTime: row.startAt,
  endTime: row.endAt,
  paid: row.paid,
  typeId: row.typeId,
  name: row.name,
  mandatory: row.mandatory,
  frequencyMinutes: row.frequencyMinutes,
  durationInSettingsMinutes: row.durationInSettingsMinutes,
  automatic: row.automatic,
});

export const fromDomainBreak = (b: ShiftBreak, ids: { id: string; organizationId: string; shiftId: string }): ShiftBreakRow => ({
  ...ids,
  typeId: b.typeId,
  name: b.name,
  paid: b.paid,
  mandatory: b.mandatory,
  frequencyMinutes: b.frequencyMinutes,
  durationInSettingsMinutes: b.durationInSettingsMinutes,
  startAt: b.startTime,
  endAt: b.endTime,
  automatic: b.automatic ?? false,
});
