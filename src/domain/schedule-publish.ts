/** A draft the publish of a range may pick: its start instant and what it belongs to. */
export interface DraftItem {
  id: string;
  start: Date;
}

export interface DraftAssignment {
  id: string;
  openShiftId: string;
}

export interface PublishSelection {
  openShiftIds: string[];
  /** Draft assignments of the open shifts being published: each gets its schedule entry. */
  assignmentIds: string[];
  /** Conflicting assignments (time off, overlap) of open shifts in the range: their open shift stays a draft. */
  withheld: DraftAssignment[];
}

/** The publish rule for every draft, entry or open shift: it starts in [start, end). */
export const startsIn = (item: DraftItem, range: { start: Date; end: Date }) =>
  item.start.getTime() >= range.start.getTime() && item.start.getTime() < range.end.getTime();

/**
 * What publishing [start, end) makes public of a location's draft open shifts: those starting in it, and the draft
 * assignments of those open shifts (an assignment on an open shift outside the range stays a draft). Draft entries
 * follow the same rule (startsIn), written as the publish statement's own condition.
 */
export function publishSelection(
  drafts: { openShifts: readonly DraftItem[]; assignments: readonly DraftAssignment[]; conflicting?: ReadonlySet<string> },
  range: { start: Date; end: Date },
): PublishSelection {
  const inRange = new Set(drafts.openShifts.filter((s) => startsIn(s, range)).map((s) => s.id));
  const conflicting = drafts.conflicting ?? new Set<string>();
  const withheld = drafts.assignments.filter((a) => inRange.has(a.openShiftId) && conflicting.has(a.id));
  // An open shift with a conflicting assignment stays a draft whole: a published open shift has no draft assignment.
  const blocked = new Set(withheld.map((a) => a.openShiftId));
  const openShiftIds = [...inRange].filter((id) => !blocked.has(id));
  const published = new Set(openShiftIds);
  return {
    openShiftIds,
    assignmentIds: drafts.assignments.filter((a) => published.has(a.openShiftId)).map((a) => a.id),
    withheld,
  };
}
