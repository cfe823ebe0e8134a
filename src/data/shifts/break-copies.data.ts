import type { ShiftBreakRow, ShiftRow } from "@/wire/shift.schemas";

/** A shift's breaks as its breaks_json copy holds them (kept by triggers on shift_breaks), as shift_breaks rows. */
export const breaksOfShift = (shift: Pick<ShiftRow, "id" | "organizationId" | "breaksJson">): ShiftBreakRow[] =>
  shift.breaksJson.map((b) => ({
    id: b.id,
    organizationId: shift.organizationId,
    shiftId: shift.id,
    typeId: b.typeId,
    name: b.name,
    paid: b.paid,
    mandatory: b.mandatory,
    frequencyMinutes: b.frequencyMinutes,
    durationInSettingsMinutes: b.durationInSettingsMinutes,
    startAt: new Date(b.startAt),
    endAt: b.endAt === null ? null : new Date(b.endAt),
    automatic: b.automatic,
  }));
