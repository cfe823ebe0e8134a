// What recording events costs a write in D1 round trips: our traced request next to the baseline's statements for the
// same operation (the baseline writes no event).

export const isEventInsert = (sql) => /^\s*insert into "events"/i.test(sql);
/** The read a batch with events ends with: which webhook endpoints to wake after the request (src/data/outbox/wake.ts). */
export const isWakeRead = (sql) => /^\s*select "id", "organization_id" from "webhooks"/i.test(sql);
/** The audit entry guardedBatch writes beside each event (src/data/audit/audit-entries.ts): no baseline keeps one. */
export const isAuditInsert = (sql) => /^\s*insert into "audit_log"/i.test(sql);
const isOutbox = (sql) => isEventInsert(sql) || isWakeRead(sql) || isAuditInsert(sql);

/**
 * Each round trip's statements, the outbox's (event INSERTs, the wake read) and the events' audit entries left out (a
 * trip left empty is dropped).
 */
export const withoutEventInserts = (tripStatements) =>
  tripStatements.map((statements) => statements.filter((sql) => !isOutbox(sql))).filter((statements) => statements.length > 0);

/**
 * `trace`: a traced request of ours; `baselineTrips`: the statements of each round trip the baseline sends for it.
 * Answers the round trips of both, how many event INSERTs ours sent and in which round trips, and whether ours is
 * otherwise the baseline's statements exactly.
 */
export function eventCost(trace, baselineTrips) {
  // On the organization's shard: the directory read that chose the shard is counted apart (bench/counting-entry.ts).
  const ours = trace.roundTrips.filter((trip) => trip.kind !== "directory").map((trip) => trip.statements);
  return {
    ours: ours.length,
    baseline: baselineTrips.length,
    eventInserts: ours.flat().filter(isEventInsert).length,
    wakeReads: ours.flat().filter(isWakeRead).length,
    inTrips: ours.flatMap((statements, i) => (statements.some(isOutbox) ? [i + 1] : [])),
    identicalOtherwise: JSON.stringify(withoutEventInserts(ours)) === JSON.stringify(baselineTrips),
  };
}

export const describeEventCost = (label, cost) =>
  `${label}: ours ${cost.ours} D1 round trips, its ${cost.eventInserts} event INSERT(s) and ${cost.wakeReads} read of the endpoints to wake ` +
  `in round trip ${cost.inTrips.join(", ") || "-"}; ` +
  `the baseline, which writes no event, ${cost.baseline}: ${cost.ours - cost.baseline >= 0 ? "+" : ""}${cost.ours - cost.baseline} round trips ` +
  `for the event (statements otherwise ${cost.identicalOtherwise ? "identical" : "DIFFERENT"}).`;
