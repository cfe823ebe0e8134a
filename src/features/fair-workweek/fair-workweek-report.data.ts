import { goodFaithEstimates, payRuleSets, scheduleChanges, scheduleEntries, staffMembers } from "@db/schema";
import { and, asc, eq, gt, gte, inArray, isNull, lt, lte, sql } from "drizzle-orm";
import { chunk, rowsPerStatement } from "@/data/chunk";
import type { Database } from "@/data/client";
import { namedPayInputsOf, namedPayStatements } from "@/data/pay/pay-inputs.data";
import { calendarRangeProblem } from "@/domain/calendar-range";
import { type ReportWorker, workweekReport, workweekStarts } from "@/domain/fair-workweek/workweek-report";
import { addDays, businessDate } from "@/domain/local-time";
import { computeChargedPay } from "@/domain/pay-classification";
import { organizationWorkweekStartsOn, workweekStart } from "@/domain/pay-workweek";
import { decodeIdCursor } from "@/platform/http/pagination";
import { invalidField } from "@/problems/problem";

/** The longest range one report may span, in days (both dates counted). */
export const MAX_REPORT_DAYS = 92;

const DAY_MS = 86_400_000;

interface ReportQuery {
  limit: number;
  cursor?: string;
  startDate: string;
  endDate: string;
  locationId?: string;
  employeeId?: string;
}

/** Ids per IN list: a statement binds them and at most a handful of other parameters. */
const IDS_PER_STATEMENT = rowsPerStatement(1, 8);

/**
 * The report's page of staff ids (limit + 1, by id; a staff member acting as themself only their own, and none
 * when naming a colleague), and `build`, which reads the organization's pay rule sets (its workweeks), then in one
 * round trip the page's entries, changes and estimates and their pay inputs, and reports each of them per workweek.
 */
export async function readReport(db: Database, organizationId: string, query: ReportQuery, ownStaffMemberId: string | null) {
  const rangeProblem = calendarRangeProblem(query.startDate, query.endDate, MAX_REPORT_DAYS);
  if (rangeProblem) throw invalidField(rangeProblem.path, rangeProblem.message);
  const none = { staffIds: [] as string[], build: async (): Promise<ReportWorker[]> => [] };
  if (ownStaffMemberId !== null && query.employeeId !== undefined && query.employeeId !== ownStaffMemberId) return none;
  const employeeId = ownStaffMemberId ?? query.employeeId;
  const s = staffMembers;
  const staff = await db
    .select({ id: s.id })
    .from(s)
    .where(
      and(
        eq(s.organizationId, organizationId),
        isNull(s.deletedAt),
        query.cursor ? gt(s.id, decodeIdCursor(query.cursor)) : undefined,
        employeeId === undefined ? undefined : eq(s.id, employeeId),
        query.locationId === undefined
          ? undefined
          : sql`EXISTS (SELECT 1 FROM json_each(${s.locationIds}) WHERE value = ${query.locationId})`,
      ),
    )
    .orderBy(asc(s.id))
    .limit(query.limit + 1);
  const build = (staffIds: string[]) => buildReport(db, organizationId, query, staffIds);
  return { staffIds: staff.map((row) => row.id), build };
}

async function buildReport(db: Database, organizationId: string, query: ReportQuery, staffIds: string[]): Promise<ReportWorker[]> {
  if (staffIds.length === 0) return [];
  const sets = await db
    .select()
    .from(payRuleSets)
    .where(and(eq(payRuleSets.organizationId, organizationId), isNull(payRuleSets.locationId), isNull(payRuleSets.deletedAt)));
  const startsOn = organizationWorkweekStartsOn(sets);
  const weekStartOf = (date: string) => workweekStart(date, startsOn(date));
  const weekStarts = workweekStarts(query.startDate, query.endDate, weekStartOf);
  const from = weekStarts[0]!;
  const to = addDays(weekStarts[weekStarts.length - 1]!, 6);
  // Local dates are within a day of UTC ones: read a day more each side, then date each entry by its offset.
  const fromInstant = new Date(Date.parse(`${from}T00:00:00Z`) - DAY_MS);
  const toInstant = new Date(Date.parse(`${to}T00:00:00Z`) + 2 * DAY_MS);
  const e = scheduleEntries;
  const c = scheduleChanges;
  const g = goodFaithEstimates;
  const reads = chunk(staffIds, IDS_PER_STATEMENT).flatMap((ids) => [
    db
      .select({ employeeId: e.employeeId, startAt: e.startAt, endAt: e.endAt, utcOffset: e.utcOffset })
      .from(e)
      .where(
        and(
          eq(e.organizationId, organizationId),
          inArray(e.employeeId, ids),
          eq(e.isDraft, false),
          isNull(e.deletedAt),
          gte(e.startAt, fromInstant),
          lt(e.startAt, toInstant),
          query.locationId === undefined ? undefined : eq(e.locationId, query.locationId),
        ),
      ),
    db
      .select({ employeeId: c.employeeId, entryDate: c.entryDate, premiumHours: c.premiumHours, premiumAmount: c.premiumAmount })
      .from(c)
      .where(
        and(
          eq(c.organizationId, organizationId),
          inArray(c.employeeId, ids),
          isNull(c.deletedAt),
          gte(c.entryDate, from),
          lte(c.entryDate, to),
          query.locationId === undefined ? undefined : eq(c.locationId, query.locationId),
        ),
      ),
    db
      .select({
        employeeId: g.employeeId,
        effectiveFrom: g.effectiveFrom,
        weeklyHoursMin: g.weeklyHoursMin,
        weeklyHoursMax: g.weeklyHoursMax,
      })
      .from(g)
      .where(and(eq(g.organizationId, organizationId), inArray(g.employeeId, ids), lte(g.effectiveFrom, to))),
  ]);
  // Pay of the page's workers for the report's whole workweeks, as GET /timesheets/pay computes it: its premium lines.
  const payFilter = { organizationId, startDate: from, endDate: to };
  const payReads = namedPayStatements(db, payFilter, staffIds);
  const all = [...payReads, ...reads];
  const batched = await db.batch(all as unknown as [(typeof all)[number], ...(typeof all)[number][]]);
  const inputs = namedPayInputsOf(payFilter, batched.slice(0, payReads.length));
  const results = batched.slice(payReads.length);
  type Entry = { employeeId: string; startAt: Date; endAt: Date; utcOffset: number };
  type Change = { employeeId: string; entryDate: string; premiumHours: number | null; premiumAmount: number | null };
  type Estimate = { employeeId: string; effectiveFrom: string; weeklyHoursMin: number; weeklyHoursMax: number };
  const entries: Entry[] = [];
  const changes: Change[] = [];
  const estimates: Estimate[] = [];
  results.forEach((rows, i) => {
    if (i % 3 === 0) entries.push(...(rows as Entry[]));
    else if (i % 3 === 1) changes.push(...(rows as Change[]));
    else estimates.push(...(rows as Estimate[]));
  });
  return workweekReport({
    employeeIds: staffIds,
    weekStarts,
    weekStartOf,
    entries: entries.map((row) => ({
      employeeId: row.employeeId,
      date: businessDate(row.startAt, row.utcOffset),
      minutes: Math.round((row.endAt.getTime() - row.startAt.getTime()) / 60_000),
    })),
    changes,
    estimates,
    payLines: premiumLines(inputs, from, to, query.locationId),
  });
}

/**
 * The Fair Workweek premium lines of the workers' pay of [from, to] (computeChargedPay, the pay lines' engine), with
 * `locationId` only those owed there: a change's at its entry's location, a rest premium's at the shift worked
 * inside the rest. The other lines and the regular rates they are paid at still count every shift.
 */
function premiumLines(inputs: ReturnType<typeof namedPayInputsOf>, from: string, to: string, locationId: string | undefined) {
  const premiums = locationId === undefined ? inputs.premiums : inputs.premiums.filter((p) => p.locationId === locationId);
  return computeChargedPay({ ...inputs, premiums, startDate: from, endDate: to }).flatMap(({ pay, lines }) =>
    lines
      .filter(({ line }) => line.kind === "PREDICTABILITY" || line.kind === "REST")
      .map(({ line, cents }) => ({ employeeId: pay.employeeId, date: line.date, kind: line.kind, hours: line.hours, cents })),
  );
}
