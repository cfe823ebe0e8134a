import { lockedDays, shifts } from "@db/schema";
import { and, asc, eq, gte, isNotNull, isNull, lt, lte, type Placeholder, type SQL, sql } from "drizzle-orm";
import type { Database } from "@/data/client";
import { inJsonList } from "@/data/json-list";
import { readRows } from "@/data/row-mapping";
import type { PunchSource } from "@/domain/punch-source";
import { businessDateBounds, type TimesheetRange } from "@/domain/timesheet-range";
import { AMOUNT_DECIMALS, type AmountDecimals, type AmountSums, type MinuteTotals } from "@/domain/timesheet-totals";
import { invalidField } from "@/problems/problem";

/** Everything that selects the shifts of a timesheet read. */
export interface TimesheetFilter {
  organizationId: string;
  range: TimesheetRange;
  /** The caller may only see this staff member's shifts. */
  ownStaffMemberId?: string | null;
  locationId?: string;
  employeeId?: string;
  roleId?: string;
  flagged?: boolean;
  open?: boolean;
  /** Only shifts clocked in or out from one of these sources. */
  sources?: readonly PunchSource[];
  updatedSince?: string;
  employees?: readonly string[];
  locations?: readonly string[];
  /** Reports may count a shift on its start's date at this offset instead of its business date. */
  dayOffset?: number;
}

/** A shift's amount in units of 10^-decimals, as SQL: the same arithmetic as domain/timesheet-totals' amountUnits. */
export const amountUnitsSql = (decimals: AmountDecimals) =>
  sql`CAST(ROUND(${shifts.payableDuration} * ${shifts.hourlyWage} * ${sql.raw(String(10 ** decimals))} / 60.0) AS INTEGER)`;

const amountSum = (decimals: AmountDecimals) => sql<number>`coalesce(sum(${amountUnitsSql(decimals)}), 0)`.mapWith(Number);

/**
 * The amounts summed at every decimals a currency rounds to (each shift rounded once): the statement is the same
 * whatever the organization's currency, which the serializer reads in the same batch and picks by (sumsToAmount).
 */
const amountColumns = Object.fromEntries(AMOUNT_DECIMALS.map((d) => [`amountUnits${d}`, amountSum(d)])) as {
  [K in keyof AmountSums]: ReturnType<typeof amountSum>;
};

const flaggedSql = sql`json_array_length(${shifts.flags}) > 0`;

/** The report day of a shift: its business date, or its start's date at the report's utcOffset. */
export const daySql = (dayOffset: number | undefined): SQL =>
  // Qualified names: drizzle writes bare column names in one-table selects, which a subquery would capture.
  // The offset is a validated integer written into the text, so the SELECT and GROUP BY expressions are identical.
  sql.raw(
    dayOffset === undefined
      ? `"shifts"."business_date"`
      : `strftime('%Y-%m-%d', "shifts"."start_at" / 1000 + ${Math.trunc(dayOffset) * 60}, 'unixepoch')`,
  );

/** Whether the shift's (location, day) is locked: a primary-key probe of locked_days per row (single shifts, report days). */
export const lockedSql = (day: SQL = daySql(undefined)) =>
  sql<number>`EXISTS (SELECT 1 FROM locked_days AS ld WHERE ld.location_id = "shifts"."location_id" AND ld.date = ${day})`.mapWith((v) =>
    Boolean(Number(v)),
  );

/**
 * The range as conditions the business_date indexes serve: business-date bounds always (widened for instants
 * and for report days read at another offset), then the exact test on start_at or on the report day. After a
 * cursor, the row value (business_date, id) > cursor replaces the lower bound, so the index seeks to it.
 */
function rangeConditions(range: TimesheetRange, dayOffset?: number, after?: ShiftCursor | null): SQL[] {
  const day = dayOffset === undefined ? null : daySql(dayOffset);
  const { first, last } = businessDateBounds(range, day ? 2 : 0);
  const lower =
    after && after.businessDate >= first
      ? sql`(${shifts.businessDate}, ${shifts.id}) > (${after.businessDate}, ${after.id})`
      : gte(shifts.businessDate, first);
  const conditions = [lower, lte(shifts.businessDate, last)];
  if (range.start.kind === "instant") conditions.push(gte(shifts.startAt, range.start.at));
  else if (day) conditions.push(sql`${day} >= ${range.start.date}`);
  if (range.end.kind === "instant") conditions.push(lt(shifts.startAt, new Date(range.end.at.getTime() + 1)));
  else if (day) conditions.push(sql`${day} <= ${range.end.date}`);
  return conditions;
}

/**
 * The tenancy term. With a staff member or location filter it is written `+organization_id = ?`: the unary plus
 * keeps SQLite from using the organization index, which it otherwise prefers whenever that index also serves
 * ORDER BY … LIMIT, and leaves it the staff member's or location's index, which reads only the matching rows.
 */
function scopeTerm(filter: TimesheetFilter): SQL {
  const narrowed =
    filter.employeeId || filter.ownStaffMemberId || filter.locationId || filter.employees?.length || filter.locations?.length;
  return narrowed ? sql`+${shifts.organizationId} = ${filter.organizationId}` : eq(shifts.organizationId, filter.organizationId);
}

/** The WHERE of a timesheet read. Deleted shifts are out unless asked for (never in totals). */
export function shiftConditions(filter: TimesheetFilter, options: { includeDeleted?: boolean; after?: ShiftCursor | null } = {}): SQL {
  const optional = (value: unknown, condition: () => SQL) => (value === undefined || value === null ? undefined : condition());
  return and(
    scopeTerm(filter),
    ...rangeConditions(filter.range, filter.dayOffset, options.after),
    options.includeDeleted ? undefined : isNull(shifts.deletedAt),
    optional(filter.ownStaffMemberId, () => eq(shifts.employeeId, filter.ownStaffMemberId!)),
    optional(filter.locationId, () => eq(shifts.locationId, filter.locationId!)),
    optional(filter.employeeId, () => eq(shifts.employeeId, filter.employeeId!)),
    optional(filter.roleId, () => eq(shifts.roleId, filter.roleId!)),
    optional(filter.flagged, () => (filter.flagged ? flaggedSql : sql`NOT ${flaggedSql}`)),
    optional(filter.open, () => (filter.open ? isNull(shifts.endAt) : isNotNull(shifts.endAt))),
    filter.sources?.length
      ? sql`(${inJsonList(shifts.clockInSource, filter.sources)} OR ${inJsonList(shifts.clockOutSource, filter.sources)})`
      : undefined,
    optional(filter.updatedSince, () => gte(shifts.updatedAt, new Date(filter.updatedSince!))),
    filter.employees?.length ? inJsonList(shifts.employeeId, filter.employees) : undefined,
    filter.locations?.length ? inJsonList(shifts.locationId, filter.locations) : undefined,
  )!;
}

/** Sums of the selected shifts, as the database adds them (minutes, and amounts in units of each decimals). */
export const totalsColumns = {
  count: sql<number>`count(*)`.mapWith(Number),
  duration: sql<number>`coalesce(sum(${shifts.duration}), 0)`.mapWith(Number),
  totalPaidBreaks: sql<number>`coalesce(sum(${shifts.totalPaidBreaks}), 0)`.mapWith(Number),
  totalUnpaidBreaks: sql<number>`coalesce(sum(${shifts.totalUnpaidBreaks}), 0)`.mapWith(Number),
  payableDuration: sql<number>`coalesce(sum(${shifts.payableDuration}), 0)`.mapWith(Number),
  ...amountColumns,
  flaggedShifts: sql<number>`coalesce(sum(${flaggedSql}), 0)`.mapWith(Number),
} satisfies Record<keyof MinuteTotals, unknown>;

/** The amount sums of totalsColumns, aliased for a grouped subquery whose outer select reads them (amountsOf). */
export const aliasedAmounts = () =>
  Object.fromEntries(AMOUNT_DECIMALS.map((d) => [`amountUnits${d}`, amountColumns[`amountUnits${d}`].as(`amount_units_${d}`)])) as {
    [K in keyof AmountSums]: SQL.Aliased<number>;
  };

/** The amount sums of a subquery selected with aliasedAmounts. */
export const amountsOf = <T extends { [K in keyof AmountSums]: SQL.Aliased<number> }>(subquery: T) =>
  Object.fromEntries(AMOUNT_DECIMALS.map((d) => [`amountUnits${d}`, subquery[`amountUnits${d}`]])) as Pick<T, keyof AmountSums>;

/** Pages follow (business_date, id): the order of every shifts index, so a page reads what it returns. */
export interface ShiftCursor {
  businessDate: string;
  id: string;
}

export const encodeShiftCursor = (c: ShiftCursor) => btoa(`${c.businessDate}|${c.id}`).replaceAll("=", "");

export function decodeShiftCursor(cursor: string): ShiftCursor {
  let text = "";
  try {
    text = atob(cursor);
  } catch {
    // an invalid cursor is reported below
  }
  const match = /^(\d{4}-\d{2}-\d{2})\|(.{1,64})$/.exec(text);
  if (!match) throw invalidField("cursor", "not a cursor from this listing's Link header");
  return { businessDate: match[1]!, id: match[2]! };
}

export interface Page {
  where: SQL;
  /** Rows to read: the page size + 1, so the caller knows whether more remain. */
  limit: number;
}

/** A page of the filter after the cursor. */
export const shiftPage = (filter: TimesheetFilter, cursor: ShiftCursor | null, limit: number, includeDeleted = false): Page => ({
  where: shiftConditions(filter, { includeDeleted, after: cursor }),
  limit: limit + 1,
});

/** The shifts `where` picks, a page in (business_date, id) order: the select of pageQuery, and of a prepared listing. */
export const pageSelect = (db: Database, where: SQL | undefined, limit: number | Placeholder) =>
  db.select().from(shifts).where(where).orderBy(asc(shifts.businessDate), asc(shifts.id)).limit(limit);

/** One page of shifts, each with its breaks (breaks_json). Their `locked` comes from the locked days read in the same batch (lockedDaysQuery). */
export const pageQuery = (db: Database, page: Page) => readRows(db, pageSelect(db, page.where, page.limit));

/** The totals of the shifts `where` picks. */
export const totalsSelect = (db: Database, where: SQL | undefined) => db.select(totalsColumns).from(shifts).where(where);

export const totalsQuery = (db: Database, filter: TimesheetFilter) => totalsSelect(db, shiftConditions(filter));

/**
 * Locked days of the range at the filtered location(s), or at any location of the organization: enough to mark
 * every shift of the range (its business date at its location) and to list the range's locked dates. For
 * instant edges the dates widen as the shifts' business dates do.
 */
export function lockedDaysQuery(db: Database, filter: TimesheetFilter) {
  const { first, last } = businessDateBounds(filter.range);
  return db
    .select({ date: lockedDays.date, locationId: lockedDays.locationId })
    .from(lockedDays)
    .where(
      and(
        eq(lockedDays.organizationId, filter.organizationId),
        gte(lockedDays.date, first),
        lte(lockedDays.date, last),
        filter.locationId ? eq(lockedDays.locationId, filter.locationId) : undefined,
        filter.locations?.length ? inJsonList(lockedDays.locationId, filter.locations) : undefined,
      ),
    )
    .orderBy(asc(lockedDays.date));
}
