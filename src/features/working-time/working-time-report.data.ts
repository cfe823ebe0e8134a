import { staffMembers } from "@db/schema";
import { and, asc, eq, gt, isNull } from "drizzle-orm";
import { chunk, rowsPerStatement } from "@/data/chunk";
import type { Database } from "@/data/client";
import { type HolidayCalendar, holidayCalendar, holidaySourcesStatement } from "@/data/holidays/holiday-calendar.data";
import { effectiveWorkingTimePack, organizationSettingsStatement } from "@/data/working-time/location-working-time.data";
import { type ListedViolation, listedViolation } from "@/data/working-time/schedule-check.data";
import { shiftSpan, workedShiftsStatement } from "@/data/working-time/work-spans.data";
import { calendarRangeProblem } from "@/domain/calendar-range";
import { STATUTORY_HOLIDAY_TYPES } from "@/domain/public-holidays";
import type { WorkSpan } from "@/domain/working-time/checks";
import type { WorkingTimePackId } from "@/domain/working-time/packs";
import { type PeriodSummary, referencePeriods, summarizePeriod } from "@/domain/working-time/report";
import { decodeIdCursor } from "@/platform/http/pagination";
import { invalidField } from "@/problems/problem";

/** The longest range one report may span, in days (both dates counted): a year and a week. */
export const MAX_REPORT_DAYS = 371;

const DAY_MS = 86_400_000;
/** Ids per IN list: a statement binds them and a handful of other parameters. */
const IDS_PER_STATEMENT = rowsPerStatement(1, 8);

interface ReportQuery {
  limit: number;
  cursor?: string | undefined;
  startDate: string;
  endDate: string;
  employeeId?: string | undefined;
}

/** A row of the report: one worker, one pack, one reference period. */
type Row = Omit<PeriodSummary, "violations"> & { employeeId: string; rulePack: WorkingTimePackId; violations: ListedViolation[] };

/**
 * The report's page of staff (limit + 1, by id; a staff member acting as themself only their own) and `build`,
 * which reads, in one round trip, the organization's location settings and the page's worked shifts (chunked IN
 * lists, so that no statement binds over D1's 100 parameters), and summarises each worker per pack and period.
 */
export async function readWorkingTimeReport(db: Database, organizationId: string, query: ReportQuery, ownStaffMemberId: string | null) {
  const rangeProblem = calendarRangeProblem(query.startDate, query.endDate, MAX_REPORT_DAYS);
  if (rangeProblem) throw invalidField(rangeProblem.path, rangeProblem.message);
  const none = { staff: [] as StaffFacts[], build: async (): Promise<Row[]> => [] };
  if (ownStaffMemberId !== null && query.employeeId !== undefined && query.employeeId !== ownStaffMemberId) return none;
  const employeeId = ownStaffMemberId ?? query.employeeId;
  const s = staffMembers;
  const staff = await db
    .select({ id: s.id, birthDate: s.birthDate, optOut: s.workingTimeOptOut })
    .from(s)
    .where(
      and(
        eq(s.organizationId, organizationId),
        isNull(s.deletedAt),
        query.cursor ? gt(s.id, decodeIdCursor(query.cursor)) : undefined,
        employeeId === undefined ? undefined : eq(s.id, employeeId),
      ),
    )
    .orderBy(asc(s.id))
    .limit(query.limit + 1);
  return { staff, build: (page: StaffFacts[]) => buildReport(db, organizationId, query, page) };
}

type StaffFacts = { id: string; birthDate: Date | null; optOut: { signedOn: string; withdrawnOn: string | null } | null };

async function buildReport(db: Database, organizationId: string, query: ReportQuery, page: StaffFacts[]): Promise<Row[]> {
  if (page.length === 0) return [];
  // A day more each side: local dates are within a day of UTC ones, and the rest before the first shift counts.
  const from = new Date(Date.parse(`${query.startDate}T00:00:00Z`) - DAY_MS);
  const to = new Date(Date.parse(`${query.endDate}T00:00:00Z`) + 2 * DAY_MS);
  const chunks = chunk(
    page.map((p) => p.id),
    IDS_PER_STATEMENT,
  );
  const [settings, ...shiftChunks] = await db.batch([
    organizationSettingsStatement(db, organizationId),
    ...chunks.map((ids) => workedShiftsStatement(db, organizationId, ids, from, to)),
  ]);
  const settingOf = new Map(settings.map((row) => [row.locationId, row]));
  const spans = shiftChunks.flat().map((row) => shiftSpan(row));
  const range = { start: query.startDate, end: query.endDate };
  const onHoliday = await publicHolidaysOf(db, organizationId, settings, query);
  const locationOf = new Map(spans.map((span) => [span.id, span.locationId]));
  const holidayWork = (span: WorkSpan, date: string) => onHoliday(locationOf.get(span.id) ?? "", date);
  return page.flatMap((worker) => {
    // The worker's shifts by the pack of their location (as set on the range's first date).
    const byPack = new Map<WorkingTimePackId, { spans: WorkSpan[]; locationId: string }>();
    for (const span of spans) {
      if (span.employeeId !== worker.id) continue;
      const pack = effectiveWorkingTimePack(settingOf.get(span.locationId), query.startDate);
      if (!pack) continue;
      const group = byPack.get(pack.id) ?? { spans: [], locationId: span.locationId };
      group.spans.push(span);
      byPack.set(pack.id, group);
    }
    return [...byPack].flatMap(([, group]) => {
      const setting = settingOf.get(group.locationId);
      const pack = effectiveWorkingTimePack(setting, query.startDate)!;
      const kinds = new Map(group.spans.map((s) => [s.id, s.kind]));
      return referencePeriods(pack, query.startDate, query.endDate).map((period) => {
        const summary = summarizePeriod(pack, group.spans, period, range, worker, setting?.schoolTerms ?? [], holidayWork);
        return {
          employeeId: worker.id,
          rulePack: pack.id,
          ...summary,
          violations: summary.violations.map((v) => listedViolation(v, kinds)),
        };
      });
    });
  });
}

/**
 * The public holidays of the locations whose pack forbids work on them (DE, ArbZG §9(1)), overrides applied: one more
 * statement and the dataset loaded only when some location's pack, as set on startDate, has that rule.
 */
async function publicHolidaysOf(
  db: Database,
  organizationId: string,
  settings: readonly (NonNullable<Parameters<typeof effectiveWorkingTimePack>[0]> & { locationId: string })[],
  query: ReportQuery,
): Promise<HolidayCalendar> {
  const judged = new Set(
    settings.flatMap((setting) =>
      setting && effectiveWorkingTimePack(setting, query.startDate)?.publicHolidayRest ? [setting.locationId] : [],
    ),
  );
  if (judged.size === 0) return () => false;
  const rows = (await holidaySourcesStatement(db, organizationId)).filter((row) => judged.has(row.id));
  // Statutory holidays only: 24 December (Heiligabend) is a "bank" day in the dataset, not a gesetzlicher Feiertag.
  return holidayCalendar(rows, query.startDate, query.endDate, STATUTORY_HOLIDAY_TYPES);
}
