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
  entryIds: string[];
  openShiftIds: string[];
  /** Draft assignments of the open shifts being published: each gets its schedule entry. */
  assignmentIds: string[];
}

const inRange = (item: DraftItem, range: { start: Date; end: Date }) =>
  item.start.getTime() >= range.start.getTime() && item.start.getTime() < range.end.getTime();

/**
 * What publishing [start, end) makes public: the draft entries and draft open shifts starting in it, and the
 * draft assignments of those open shifts (an assignment on an open shift outside the range stays a draft).
 */
export function publishSelection(
  drafts: { entries: readonly DraftItem[]; openShifts: readonly DraftItem[]; assignments: readonly DraftAssignment[] },
  range: { start: Date; end: Date },
): PublishSelection {
  const openShiftIds = drafts.openShifts.filter((s) => inRange(s, range)).map((s) => s.id);
  const published = new Set(openShiftIds);
  return {
    entryIds: drafts.entries.filter((e) => inRange(e, range)).map((e) => e.id),
    openShiftIds,
    assignmentIds: drafts.assignments.filter((a) => published.has(a.openShiftId)).map((a) => a.id),
  };
}
