// The SQL our Worker sends to D1 for a page of pay lines (GET /api/timesheets/pay without filters), from this run's
// recording of ours (recording.js): src/features/pay's page read, two round trips: the rule sets, the currency, the
// page's staff members and the Fair Workweek packs; then their shifts, time off and premiums owed by IN lists of at
// most 90 ids. `payLinesStatements` and `payLinesPageStatements` answer them with the bound values of a request. The
// pay scenario compares both, statements AND values, with its trace of our Worker.
//
// Plain JS with no Worker-only imports: the bench (Node) imports it too.
import { fromRecording, statement, trip, withInList } from "./recording.js";

const DAY_MS = 86_400_000;
const addDays = (date, days) => new Date(Date.parse(date) + days * DAY_MS).toISOString().slice(0, 10);

/** Ids bound in one IN list (src/data/pay/pay-inputs.data.ts's IDS_PER_STATEMENT). */
export const IDS_PER_STATEMENT = 90;

/** Filled from the recording: the first page's and a next page's reads, and the per-ids reads as functions of the ids. */
export const SQL = {};

/**
 * The page reads of a recorded request of ours (pay lines, labor cost): its first round trip's four reads and its
 * second's three per chunk of ids (the first chunk full); a page after a cursor from `nextPage`'s, when recorded.
 */
export function pageReadsOf(r, operation, nextPage) {
  const [ruleSets, organization, page, packs] = trip(r, operation, 0, 4);
  const perIds = trip(r, operation, 1);
  if (perIds.length % 3 !== 0)
    throw new Error(`recording: ${operation}'s second round trip holds ${perIds.length} statements, not 3 per chunk of ids`);
  return {
    ruleSets,
    organization,
    page,
    packs,
    pageAfter: nextPage === undefined ? undefined : statement(r, nextPage, 0, 2, 'select "id", "name"'),
    shifts: withInList(statement(r, operation, 1, 0, 'select "id", "employee_id"'), IDS_PER_STATEMENT),
    timeOff: withInList(statement(r, operation, 1, 1, 'select "time_off_requests"'), IDS_PER_STATEMENT),
    premiums: withInList(statement(r, operation, 1, 2, "select"), IDS_PER_STATEMENT),
  };
}

// "pay lines": a page of 500 staff (the first chunk of ids holds 90); "pay lines, next page": a page after a cursor.
fromRecording(["pay lines", "pay lines, next page"], (r) => Object.assign(SQL, pageReadsOf(r, "pay lines", "pay lines, next page")));

/** The first round trip of a page: [sql, values] of the rule sets, the currency, the page's staff members (limit + 1) and the Fair Workweek packs. */
export function payLinesStatements({ organizationId, startDate, endDate, limit = 100, afterId }, sql = SQL) {
  // A next page (its cursor's last staff member id) keeps the ids after it.
  const after = afterId === undefined ? [] : [afterId];
  const page = afterId === undefined ? sql.page : sql.pageAfter;
  if (page === undefined) throw new Error("pay-statements: no page after a cursor was recorded");
  return [
    [sql.ruleSets, [organizationId]],
    [sql.organization, [organizationId]],
    [
      page,
      [
        organizationId,
        ...after,
        addDays(startDate, -16),
        addDays(endDate, 14),
        Date.parse(`${endDate}T00:00:00Z`) + 2 * DAY_MS,
        Date.parse(`${startDate}T00:00:00Z`) - DAY_MS,
        organizationId,
        startDate,
        endDate,
        limit + 1,
      ],
    ],
    [sql.packs, [organizationId]],
  ];
}

/** The second: the shifts from 16 days before the range to 14 after (src/domain/pay-workweek payReadWindow), the time off and the premiums owed of `ids`, 90 ids a statement each. */
export function payLinesPageStatements({ organizationId, startDate, endDate }, ids, sql = SQL) {
  const pairs = [];
  for (let i = 0; i < ids.length; i += IDS_PER_STATEMENT) {
    const part = ids.slice(i, i + IDS_PER_STATEMENT);
    pairs.push(
      [sql.shifts(part.length), [organizationId, addDays(startDate, -16), addDays(endDate, 14), ...part]],
      [
        sql.timeOff(part.length),
        [
          organizationId,
          "approved",
          Date.parse(`${endDate}T00:00:00Z`) + 2 * DAY_MS,
          Date.parse(`${startDate}T00:00:00Z`) - DAY_MS,
          1,
          ...part,
        ],
      ],
      [sql.premiums(part.length), [organizationId, startDate, endDate, ...part]],
    );
  }
  return pairs;
}
