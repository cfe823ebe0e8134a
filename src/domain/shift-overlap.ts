/** A span of time; an open end (null) runs on for ever. */
export interface Span {
  start: Date;
  end: Date | null;
}

/**
 * Two spans overlap when each starts before the other ends. Touching spans (one ends as the next starts) do
 * not overlap, so back-to-back shifts are allowed. The SQL guard on shift writes states the same rule.
 */
export function overlaps(a: Span, b: Span): boolean {
  const aEndsAfterBStarts = a.end === null || a.end.getTime() > b.start.getTime();
  const bEndsAfterAStarts = b.end === null || b.end.getTime() > a.start.getTime();
  return aEndsAfterBStarts && bEndsAfterAStarts;
}

/** Indexes of spans that overlap an earlier one in the list. */
export function overlappingIndexes(spans: readonly Span[]): number[] {
  return spans.flatMap((span, i) => (spans.slice(0, i).some((earlier) => overlaps(earlier, span)) ? [i] : []));
}

/** Whether `inner` lies within `outer` (an open outer end contains any later instant). */
export const within = (inner: Span, outer: Span): boolean =>
  inner.start.getTime() >= outer.start.getTime() &&
  (outer.end === null || (inner.end !== null && inner.end.getTime() <= outer.end.getTime()));
