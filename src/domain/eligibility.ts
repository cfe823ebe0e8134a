/** Why a staff member does not fit a slot. */
export const INELIGIBILITY_REASONS = ["UNAVAILABLE", "TIME_OFF", "SCHEDULE_OVERLAP"] as const;
export type IneligibilityReason = (typeof INELIGIBILITY_REASONS)[number];

export interface Span {
  start: Date;
  end: Date;
}
export type EmployeeSpan = Span & { employeeId: string };

export interface EligibilityInput {
  slot: Span;
  /** The workweek holding the slot's start (under the pay rules in force at the location). */
  week: Span;
  weeklyOvertimeAfterMinutes: number | null;
  staffIds: readonly string[];
  unavailable: readonly EmployeeSpan[];
  preferred: readonly EmployeeSpan[];
  timeOff: readonly EmployeeSpan[];
  /** Live schedule entries (drafts and published) around the week. */
  entries: readonly EmployeeSpan[];
}

export interface Eligibility {
  employeeId: string;
  eligible: boolean;
  reasons: IneligibilityReason[];
  preferred: boolean;
  scheduledMinutesThisWeek: number;
  projectedOvertimeMinutes: number;
}

const overlaps = (a: Span, b: Span) => a.start < b.end && b.start < a.end;
const minutes = (span: Span) => Math.round((span.end.getTime() - span.start.getTime()) / 60_000);

/** Weekly overtime the slot adds on top of the scheduled minutes (no pyramiding: only what crosses the threshold). */
export const projectedOvertime = (scheduled: number, slot: number, threshold: number | null): number =>
  threshold === null ? 0 : Math.max(0, scheduled + slot - threshold) - Math.max(0, scheduled - threshold);

/**
 * Every staff member for a slot, as a manager's picker orders them: eligible first, then those who prefer the
 * time, then the fewest minutes scheduled that week (then by id, so the order is stable).
 */
export function rankEligibility(input: EligibilityInput): Eligibility[] {
  const byEmployee = <T extends EmployeeSpan>(spans: readonly T[]) => {
    const map = new Map<string, T[]>();
    for (const span of spans) {
      const of = map.get(span.employeeId);
      if (of) of.push(span);
      else map.set(span.employeeId, [span]);
    }
    return map;
  };
  const unavailable = byEmployee(input.unavailable);
  const preferred = byEmployee(input.preferred);
  const timeOff = byEmployee(input.timeOff);
  const entries = byEmployee(input.entries);
  const slotMinutes = minutes(input.slot);
  const hits = (map: Map<string, EmployeeSpan[]>, id: string) => (map.get(id) ?? []).some((s) => overlaps(s, input.slot));
  return input.staffIds
    .map((employeeId) => {
      const reasons: IneligibilityReason[] = [];
      if (hits(unavailable, employeeId)) reasons.push("UNAVAILABLE");
      if (hits(timeOff, employeeId)) reasons.push("TIME_OFF");
      if (hits(entries, employeeId)) reasons.push("SCHEDULE_OVERLAP");
      const scheduled = (entries.get(employeeId) ?? [])
        .filter((e) => e.start >= input.week.start && e.start < input.week.end)
        .reduce((sum, e) => sum + minutes(e), 0);
      return {
        employeeId,
        eligible: reasons.length === 0,
        reasons,
        preferred: hits(preferred, employeeId),
        scheduledMinutesThisWeek: scheduled,
        projectedOvertimeMinutes: projectedOvertime(scheduled, slotMinutes, input.weeklyOvertimeAfterMinutes),
      };
    })
    .sort(
      (a, b) =>
        Number(b.eligible) - Number(a.eligible) ||
        Number(b.preferred) - Number(a.preferred) ||
        a.scheduledMinutesThisWeek - b.scheduledMinutesThisWeek ||
        (a.employeeId < b.employeeId ? -1 : a.employeeId > b.employeeId ? 1 : 0),
    );
}
