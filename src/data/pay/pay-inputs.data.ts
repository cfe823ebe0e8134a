import { organizations, payRuleSets, policyTypes, shifts, staffMembers, timeOffPolicies, timeOffRequests } from "@db/schema";
import { and, asc, eq, gt, inArray, isNull, lte, type SQL, sql } from "drizzle-orm";
import { chunk, rowsPerStatement } from "@/data/chunk";
import type { Database } from "@/data/client";
import { packsOnDates, packVersionsStatement } from "@/data/fair-workweek/fair-workweek.data";
import { premiumChangesStatement } from "@/data/fair-workweek/schedule-changes.data";
import { type HolidayCalendar, holidayCalendarFor } from "@/data/holidays/holiday-calendar.data";
import { readRows } from "@/data/row-mapping";
import { minorUnitsOf } from "@/domain/currency-minor-units";
import { restPremiums } from "@/domain/fair-workweek/rest-premiums";
import type { ShiftCharge } from "@/domain/labor-cost";
import type { MealWaiver } from "@/domain/meal-periods";
import type { PaidTimeOffDay, PayShift, PremiumOwed } from "@/domain/pay-classification";
import { type PayRuleSet, payWage } from "@/domain/pay-rules";
import { payShiftFromStored } from "@/domain/pay-shift";
import { payReadWindow } from "@/domain/pay-workweek";
import { ruleSetOfRow, serializePayRuleSet } from "@/wire/pay-rule-set.schemas";
import { shiftsReadFrom } from "./pay-read-window";
import { scheduledPayShiftColumns } from "./pay-shift-columns";

/** Who an employee's pay lines are for: the staff member's identifiers, as payroll systems key them. */
export interface PayEmployee {
  id: string;
  name: string;
  externalId: string | null;
  externalPayrollId: string | null;
  currencyCode: string;
  hourlyWage: number | null;
}

/** Everything a pay computation of [startDate, endDate] reads. */
export interface PayInputs {
  ruleSets: PayRuleSet[];
  /** The same sets as the API shows them (with their updatedAt): what a close's snapshot records it used. */
  ruleSetVersions: ReturnType<typeof serializePayRuleSet>[];
  shifts: PayShift[];
  timeOff: PaidTimeOffDay[];
  /** Fair Workweek premiums of the range: the change log's priced changes. */
  premiums: PremiumOwed[];
  /** The employees' dated meal waivers (from their staff rows). */
  mealWaivers: MealWaiver[];
  /** The locations' paid public holidays, read only when a rule set's preset has an award that pays them. */
  isHoliday?: HolidayCalendar;
  employees: Map<string, PayEmployee>;
  /** The organization's currency's minor units (ISO 4217, minorUnitsOf its currencyCode): what every amount rounds to. */
  minorUnits: number;
  /** payInputsFingerprint as read with the inputs when asked for (a close guards its write on it), else "". */
  fingerprint: string;
}

export interface PayFilter {
  organizationId: string;
  startDate: string;
  endDate: string;
  employeeId?: string;
  /** Only employees with a shift at this location in the range (their figures still count every shift). */
  locationId?: string;
}

/**
 * The business dates of the shifts read: every workweek the range touches is computed whole, its regular rate
 * included (domain/pay-workweek), whatever the sets say, so the read never depends on the sets it reads.
 */
export const readWindowOf = (startDate: string, endDate: string) => payReadWindow(startDate, endDate);

/**
 * What a close's snapshot depends on, as one text: the shifts of the days read (deleted ones too: a delete is a
 * change), the time off overlapping them, every rule set and the approvals of the period starting on startDate, each
 * as a count and the sum of their versions. The close reads it with its inputs and writes only while it is still the
 * same (before the approvals it adds), so nothing changes unseen under it: not even an approval withdrawn meanwhile.
 * The published schedule entries of the days read count too (deleted ones as well): the entry a shift answers sets
 * its reporting-time and call-in pay.
 */
export const payInputsFingerprint = (organizationId: string, startDate: string, endDate: string): SQL<string> => {
  const { from, to } = readWindowOf(startDate, endDate);
  const rangeStart = Date.parse(`${from}T00:00:00Z`) - 86_400_000;
  const rangeEnd = Date.parse(`${endDate}T00:00:00Z`) + 2 * 86_400_000;
  return sql<string>`(SELECT count(*) || ':' || total(updated_at) FROM shifts
      WHERE organization_id = ${organizationId} AND business_date >= ${shiftsReadFrom(organizationId, startDate)}
        AND business_date <= ${to})
    || '/' || (SELECT count(*) || ':' || total(updated_at) FROM time_off_requests
      WHERE organization_id = ${organizationId} AND start_at < ${rangeEnd} AND end_at > ${rangeStart})
    || '/' || (SELECT count(*) || ':' || total(updated_at) FROM pay_rule_sets WHERE organization_id = ${organizationId})
    || '/' || (SELECT count(*) || ':' || total(approved_at) FROM timesheet_approvals
      WHERE organization_id = ${organizationId} AND period_start_date = ${startDate})
    || '/' || (SELECT count(*) || ':' || total(updated_at) FROM schedule_changes
      WHERE organization_id = ${organizationId} AND entry_date >= ${startDate} AND entry_date <= ${endDate})
    || '/' || (SELECT count(*) || ':' || total(updated_at) FROM staff_members WHERE organization_id = ${organizationId})
    || '/' || (SELECT count(*) || ':' || total(updated_at) FROM schedule_entries
      WHERE location_id IN (SELECT id FROM locations WHERE organization_id = ${organizationId}) AND is_draft = 0
        AND start_at >= ${rangeStart - 86_400_000} AND start_at < ${Date.parse(`${to}T00:00:00Z`) + 2 * 86_400_000})`;
};

/** Approved time off on paid policies of staff member `staffId` overlapping [rangeStart, rangeEnd) (epoch ms). */
const paidTimeOffOf = (staffId: SQL, rangeStart: number, rangeEnd: number) =>
  sql`EXISTS (SELECT 1 FROM time_off_requests AS away INNER JOIN time_off_policies AS policy ON policy.id = away.policy_id
    WHERE away.worker_id = ${staffId} AND away.status = 'approved' AND away.deleted_at IS NULL
      AND away.start_at < ${rangeEnd} AND away.end_at > ${rangeStart} AND policy.paid = 1)`;

/**
 * pay_periods.time_off_wages of a close: the wage each staff member with paid time off in the period is paid it at
 * now (payWage: 0 when salaried), as the close's pay lines read it; its fingerprint (payInputsFingerprint) counts the
 * staff members' versions, so no wage changes unseen between the close's reads and its write.
 */
export const timeOffWagesOf = (organizationId: string, startDate: string, endDate: string): SQL =>
  sql`(SELECT json_group_object(s.id, CASE WHEN s.wage_type = 'salary' THEN 0 ELSE coalesce(s.hourly_wage, 0) END)
    FROM staff_members AS s WHERE s.organization_id = ${organizationId}
      AND ${paidTimeOffOf(sql`s.id`, Date.parse(`${startDate}T00:00:00Z`) - 86_400_000, Date.parse(`${endDate}T00:00:00Z`) + 2 * 86_400_000)})`;

/**
 * A time-off request's closed periods: [[startDate, endDate, wage | null]] of each closed period around it whose
 * close recorded its staff member's time-off wage (pay_periods.time_off_wages), as JSON.
 */
const closedTimeOffWages = sql<string>`(SELECT json_group_array(json_array(p.start_date, p.end_date,
    json_extract(p.time_off_wages, '$."' || ${timeOffRequests.workerId} || '"')))
  FROM pay_periods AS p WHERE p.organization_id = ${timeOffRequests.organizationId} AND p.status = 'CLOSED'
    AND p.time_off_wages IS NOT NULL
    AND p.start_date <= date(${timeOffRequests.endAt} / 1000, 'unixepoch', '+1 day')
    AND p.end_date >= date(${timeOffRequests.startAt} / 1000, 'unixepoch', '-1 day'))`;

/** The wage of a time-off day: the one its closed period's close paid it at, else the staff member's now. */
function timeOffWage(closed: string | null, date: string, now: number): number {
  const periods = closed ? (JSON.parse(closed) as [string, string, number | null][]) : [];
  const kept = periods.find(([from, to, wage]) => from <= date && date <= to && wage !== null);
  return kept ? (kept[2] as number) : now;
}

/** Employees with a shift at the location in the range, as a subquery of the employee index's reads. */
const workedAt = (filter: PayFilter, locationId: string) =>
  sql`${shifts.employeeId} IN (SELECT employee_id FROM shifts AS here WHERE here.location_id = ${locationId}
    AND here.business_date >= ${filter.startDate} AND here.business_date <= ${filter.endDate} AND here.deleted_at IS NULL)`;

/**
 * The shifts of the read window; of `employeeIds` alone when named, read by the staff member's index (the `+`
 * keeps SQLite off the organization's, which would read every shift of the window).
 */
function shiftConditions(filter: PayFilter, employeeIds?: string[]): SQL {
  const window = readWindowOf(filter.startDate, filter.endDate);
  const conditions = [
    employeeIds === undefined
      ? eq(shifts.organizationId, filter.organizationId)
      : sql`+${shifts.organizationId} = ${filter.organizationId}`,
    sql`${shifts.businessDate} >= ${shiftsReadFrom(filter.organizationId, filter.startDate)}`,
    lte(shifts.businessDate, window.to),
    isNull(shifts.deletedAt),
  ];
  if (filter.employeeId) conditions.push(eq(shifts.employeeId, filter.employeeId));
  if (employeeIds) conditions.push(inArray(shifts.employeeId, employeeIds));
  if (filter.locationId) conditions.push(workedAt(filter, filter.locationId));
  return and(...conditions)!;
}

/** Approved requests on paid policies overlapping the range (their hour configuration is per local date). */
function timeOffConditions(filter: PayFilter, employeeIds?: string[]): SQL {
  const conditions = [
    // Of `employeeIds` alone: by the staff member's index (the `+` keeps SQLite off the organization's, which would
    // read every time off of the organization once per statement of a page).
    employeeIds === undefined
      ? eq(timeOffRequests.organizationId, filter.organizationId)
      : sql`+${timeOffRequests.organizationId} = ${filter.organizationId}`,
    eq(timeOffRequests.status, "approved"),
    isNull(timeOffRequests.deletedAt),
    sql`${timeOffRequests.startAt} < ${Date.parse(`${filter.endDate}T00:00:00Z`) + 2 * 86_400_000}`,
    sql`${timeOffRequests.endAt} > ${Date.parse(`${filter.startDate}T00:00:00Z`) - 86_400_000}`,
    eq(timeOffPolicies.paid, true),
  ];
  if (filter.employeeId) conditions.push(eq(timeOffRequests.workerId, filter.employeeId));
  if (employeeIds) conditions.push(inArray(timeOffRequests.workerId, employeeIds));
  return and(...conditions)!;
}

const staffColumns = {
  id: staffMembers.id,
  name: staffMembers.name,
  externalId: staffMembers.externalId,
  externalPayrollId: staffMembers.externalPayrollId,
  currencyCode: staffMembers.currencyCode,
  hourlyWage: staffMembers.hourlyWage,
  wageType: staffMembers.wageType,
  employmentType: staffMembers.employmentType,
  schoolStudent: staffMembers.schoolStudent,
  mealWaivers: staffMembers.mealWaivers,
};

/**
 * Every statement of a pay computation, sent as one batch: the rule sets, the shifts from the first day of the
 * range's first workweek, the approved paid time off, the organization's currency (with the fingerprint a close
 * guards on, when asked: it reads the shifts once more) and the staff members — the one named, else every one of
 * the organization (a row each: one round trip instead of a second one by the ids the shifts name, which D1 counts
 * three rows per id). A caller may batch its own statements after them.
 */
export const payInputStatements = (db: Database, filter: PayFilter, { fingerprint = false } = {}) =>
  [
    ruleSetsStatement(db, filter),
    shiftsStatement(db, filter),
    timeOffStatement(db, filter),
    organizationStatement(db, filter, fingerprint),
    staffStatement(db, filter),
  ] as const;

/** The Fair Workweek premiums of the range (the change log's priced changes): the sixth rows of payInputsOf. */
export const premiumsStatement = (db: Database, filter: PayFilter, employeeIds?: string[]) =>
  premiumChangesStatement(
    db,
    filter.organizationId,
    filter.startDate,
    filter.endDate,
    employeeIds ?? (filter.employeeId === undefined ? undefined : [filter.employeeId]),
  );

const ruleSetsStatement = (db: Database, filter: PayFilter) =>
  db
    .select()
    .from(payRuleSets)
    .where(and(eq(payRuleSets.organizationId, filter.organizationId), isNull(payRuleSets.deletedAt)));

const shiftsStatement = (db: Database, filter: PayFilter, employeeIds?: string[]) =>
  readRows(db, db.select(scheduledPayShiftColumns).from(shifts).where(shiftConditions(filter, employeeIds)));

/** What labor cost charges a shift's lines to, read with its pay columns. */
const chargedShiftColumns = { ...scheduledPayShiftColumns, roleId: shifts.roleId, costCodeId: shifts.costCodeId };

const chargedShiftsStatement = (db: Database, filter: PayFilter, employeeIds?: string[]) =>
  readRows(db, db.select(chargedShiftColumns).from(shifts).where(shiftConditions(filter, employeeIds)));

export const timeOffStatement = (db: Database, filter: PayFilter, employeeIds?: string[]) =>
  db
    .select({
      workerId: timeOffRequests.workerId,
      hourConfiguration: timeOffRequests.hourConfiguration,
      closedWages: closedTimeOffWages,
      policyType: sql<string | null>`(SELECT ${policyTypes.type} FROM ${policyTypes} WHERE ${policyTypes.id} = ${timeOffPolicies.typeId})`,
    })
    .from(timeOffRequests)
    .innerJoin(timeOffPolicies, eq(timeOffPolicies.id, timeOffRequests.policyId))
    .where(timeOffConditions(filter, employeeIds));

const organizationStatement = (db: Database, filter: PayFilter, fingerprint = false) =>
  db
    .select({
      currencyCode: organizations.currencyCode,
      fingerprint: fingerprint ? payInputsFingerprint(filter.organizationId, filter.startDate, filter.endDate) : sql<string>`''`,
    })
    .from(organizations)
    .where(eq(organizations.id, filter.organizationId));

const staffStatement = (db: Database, filter: PayFilter) =>
  db
    .select(staffColumns)
    .from(staffMembers)
    .where(
      and(
        eq(staffMembers.organizationId, filter.organizationId),
        filter.employeeId === undefined ? undefined : eq(staffMembers.id, filter.employeeId),
      ),
    );

/**
 * The versions of the organization's Fair Workweek settings (a few rows per location): what REST premiums are judged
 * by, each date by the pack its location had that day.
 */
export const packsStatement = (db: Database, filter: PayFilter) => packVersionsStatement(db, filter.organizationId);

/** The Fair Workweek reads of pay after payInputStatements: the change log's premiums and the locations' packs. */
export const premiumInputStatements = (db: Database, filter: PayFilter) =>
  [premiumsStatement(db, filter), packsStatement(db, filter)] as const;

type Statements = [...ReturnType<typeof payInputStatements>, ReturnType<typeof premiumsStatement>, ReturnType<typeof packsStatement>];
/** The rows of payInputStatements, in their order. */
export type PayInputRows = readonly [
  Awaited<Statements[0]>,
  Awaited<Statements[1]>,
  Awaited<Statements[2]>,
  Awaited<Statements[3]>,
  Awaited<Statements[4]>,
  Awaited<Statements[5]>?,
  Awaited<Statements[6]>?,
];

/** The inputs of a pay computation from the rows of payInputStatements. */
export function payInputsOf(
  filter: PayFilter,
  [sets, shiftRows, timeOffRows, organization, staffRows, premiumRows = [], packRows = []]: PayInputRows,
): PayInputs {
  // A location filter names employees by their shifts or premiums there; their time off counts wherever it is.
  const workers = filter.locationId
    ? new Set([
        ...shiftRows.map((s) => s.employeeId),
        ...premiumRows.filter((r) => r.locationId === filter.locationId).map((r) => r.employeeId),
      ])
    : null;
  const timeOffOf = timeOffRows.filter((r) => !workers || workers.has(r.workerId));
  const premiumsOf = premiumRows.filter((r) => !workers || workers.has(r.employeeId));
  const ids = new Set([...shiftRows.map((s) => s.employeeId), ...timeOffOf.map((r) => r.workerId), ...premiumsOf.map((r) => r.employeeId)]);
  const staff = staffRows.filter((s) => ids.has(s.id));
  const currency = organization[0]?.currencyCode ?? "USD";
  const employees = new Map(
    staff.map((s) => [
      s.id,
      {
        id: s.id,
        name: s.name,
        externalId: s.externalId,
        externalPayrollId: s.externalPayrollId,
        currencyCode: s.currencyCode ?? currency,
        hourlyWage: payWage(s.wageType, s.hourlyWage),
      },
    ]),
  );
  const salaried = new Set(staff.filter((s) => s.wageType === "salary").map((s) => s.id));
  const employment = new Map(staff.map((s) => [s.id, { type: s.employmentType, schoolStudent: s.schoolStudent }]));
  const payShifts = shiftRows.map((row) => ({
    ...payShiftFromStored({ ...row, hourlyWage: salaried.has(row.employeeId) ? null : row.hourlyWage, breaks: row.breaks }),
    employment: employment.get(row.employeeId),
  }));
  const rest = packRows.length ? restPremiums(payShifts, packsOnDates(packRows), (id) => employees.get(id)?.hourlyWage ?? null) : [];
  return {
    ruleSets: sets.map(ruleSetOfRow),
    ruleSetVersions: sets.map(serializePayRuleSet),
    shifts: payShifts,
    timeOff: timeOffOf.flatMap((r) =>
      r.hourConfiguration.map((day) => ({
        employeeId: r.workerId,
        date: day.date,
        hours: day.hours,
        // A closed period reads as it was closed: its time off at the wage its close paid.
        hourlyWage: timeOffWage(r.closedWages, day.date, employees.get(r.workerId)?.hourlyWage ?? 0),
        ...(r.policyType !== null && { policyType: r.policyType }),
      })),
    ),
    premiums: [
      ...rest,
      ...premiumsOf.map((r) => ({
        employeeId: r.employeeId,
        date: r.entryDate,
        kind: "PREDICTABILITY" as const,
        hours: r.premiumHours,
        amount: r.premiumAmount,
        rule: r.premiumRule as `${string}.${string}`,
        hourlyWage: employees.get(r.employeeId)?.hourlyWage ?? null,
        locationId: r.locationId,
      })),
    ],
    mealWaivers: staff.flatMap((s) => s.mealWaivers.map((w) => ({ ...w, employeeId: s.id }))),
    employees,
    minorUnits: minorUnitsOf(organization[0]?.currencyCode),
    fingerprint: organization[0]?.fingerprint ?? "",
  };
}

/** The holiday calendar of the read window, when the organization's sets need one (holidayCalendarFor). */
function holidaysFor(db: Database, filter: PayFilter, sets: readonly { preset: string }[]): Promise<HolidayCalendar | undefined> {
  const { from, to } = readWindowOf(filter.startDate, filter.endDate);
  return holidayCalendarFor(db, filter.organizationId, sets, from, to);
}

/** The inputs of a pay computation in one round trip (payInputStatements): every employee, as a close reads them. */
export async function readPayInputs(db: Database, filter: PayFilter): Promise<PayInputs> {
  const inputs = payInputsOf(filter, await db.batch([...payInputStatements(db, filter), ...premiumInputStatements(db, filter)]));
  return { ...inputs, isHoliday: await holidaysFor(db, filter, inputs.ruleSets) };
}

/** A page of employees: those after `afterId` in id order, at most `limit`. */
export interface PayPage {
  limit: number;
  afterId?: string;
}

/** Ids bound in one IN list, next to the few other parameters of its statement (D1 binds at most 100). */
const IDS_PER_STATEMENT = rowsPerStatement(1, 10);

/**
 * The page's employees as pay reads them (staffColumns), in id order, limit + 1 of them (to know whether more
 * remain): staff members of the organization (deleted ones too: their shifts are still paid) with an input in the
 * read — a shift of the read window or approved paid time off overlapping the range; with `locationId`, a shift
 * there in the range or a Fair Workweek premium owed there (a change of an entry there) in the range instead. It walks the staff index in id order from the cursor and probes each one's shifts and
 * time off by their own indexes, so a page reads the staff members it answers and those without input between
 * them, never the whole organization's shifts.
 */
function payEmployeesStatement(db: Database, filter: PayFilter, page: PayPage) {
  const { from, to } = readWindowOf(filter.startDate, filter.endDate);
  const rangeStart = Date.parse(`${filter.startDate}T00:00:00Z`) - 86_400_000;
  const rangeEnd = Date.parse(`${filter.endDate}T00:00:00Z`) + 2 * 86_400_000;
  const hasInput = filter.locationId
    ? sql`(EXISTS (SELECT 1 FROM shifts AS here WHERE here.employee_id = ${staffMembers.id}
        AND here.location_id = ${filter.locationId} AND here.business_date >= ${filter.startDate}
        AND here.business_date <= ${filter.endDate} AND here.deleted_at IS NULL)
      OR ${staffMembers.id} IN (SELECT owed.employee_id FROM schedule_changes AS owed WHERE owed.organization_id = ${filter.organizationId}
        AND owed.location_id = ${filter.locationId} AND owed.entry_date >= ${filter.startDate} AND owed.entry_date <= ${filter.endDate}
        AND owed.premium_rule IS NOT NULL AND owed.deleted_at IS NULL))`
    : sql`(EXISTS (SELECT 1 FROM shifts AS worked WHERE worked.employee_id = ${staffMembers.id}
        AND worked.business_date >= ${from} AND worked.business_date <= ${to} AND worked.deleted_at IS NULL)
      OR EXISTS (SELECT 1 FROM time_off_requests AS away INNER JOIN time_off_policies AS policy ON policy.id = away.policy_id
        WHERE away.worker_id = ${staffMembers.id} AND away.status = 'approved' AND away.deleted_at IS NULL
        AND away.start_at < ${rangeEnd} AND away.end_at > ${rangeStart} AND policy.paid = 1)
      OR ${staffMembers.id} IN (SELECT owed.employee_id FROM schedule_changes AS owed WHERE owed.organization_id = ${filter.organizationId}
        AND owed.entry_date >= ${filter.startDate} AND owed.entry_date <= ${filter.endDate}
        AND owed.premium_rule IS NOT NULL AND owed.deleted_at IS NULL))`;
  return db
    .select(staffColumns)
    .from(staffMembers)
    .where(
      and(
        eq(staffMembers.organizationId, filter.organizationId),
        filter.employeeId === undefined ? undefined : eq(staffMembers.id, filter.employeeId),
        page.afterId === undefined ? undefined : gt(staffMembers.id, page.afterId),
        hasInput,
      ),
    )
    .orderBy(asc(staffMembers.id))
    .limit(page.limit + 1);
}

/**
 * The inputs of one page of employees (GET /timesheets/pay), in two round trips: the rule sets, the currency and
 * the page's employees (their staff rows); then only their shifts (every workweek the range touches, whole) and
 * time off, by IN lists of at most IDS_PER_STATEMENT ids. `more` tells whether employees remain after the page.
 * With `charges` (labor cost) the shifts are read with their role and cost code: `charges` by shift id.
 */
export async function readPayInputsPage(
  db: Database,
  filter: PayFilter,
  page: PayPage,
  { charges = false } = {},
): Promise<{ inputs: PayInputs; employeeIds: string[]; more: boolean; charges: Map<string, ShiftCharge> }> {
  const [sets, organization, pageRows, packRows] = await db.batch([
    ruleSetsStatement(db, filter),
    organizationStatement(db, filter),
    payEmployeesStatement(db, filter, page),
    packsStatement(db, filter),
  ]);
  const staffRows = pageRows.slice(0, page.limit);
  const employeeIds = staffRows.map((r) => r.id);
  const more = pageRows.length > page.limit;
  // The page's ids already name the location's employees: their shifts and time off count wherever they are.
  const byIds: PayFilter = { organizationId: filter.organizationId, startDate: filter.startDate, endDate: filter.endDate };
  const chunks = chunk(employeeIds, IDS_PER_STATEMENT);
  const shiftsOf = charges ? chargedShiftsStatement : shiftsStatement;
  const [first, ...rest] = chunks.flatMap((ids) => [
    shiftsOf(db, byIds, ids),
    timeOffStatement(db, byIds, ids),
    premiumsStatement(db, byIds, ids),
  ]);
  const rows = first ? ((await db.batch([first, ...rest])) as unknown[][]) : [];
  const part = <T>(k: number) => rows.filter((_, i) => i % 3 === k).flat() as T[];
  const shiftRows = part<PayInputRows[1][number] & Partial<ShiftCharge>>(0);
  const inputs = payInputsOf(byIds, [
    sets,
    shiftRows,
    part<PayInputRows[2][number]>(1),
    organization,
    staffRows,
    part<NonNullable<PayInputRows[5]>[number]>(2),
    packRows,
  ]);
  const shiftCharges = new Map(
    charges ? shiftRows.map((r) => [r.id, { locationId: r.locationId, roleId: r.roleId ?? null, costCodeId: r.costCodeId ?? null }]) : [],
  );
  const isHoliday = employeeIds.length > 0 ? await holidaysFor(db, filter, sets) : undefined;
  return { inputs: { ...inputs, isHoliday }, employeeIds, more, charges: shiftCharges };
}

const staffOfIdsStatement = (db: Database, filter: PayFilter, employeeIds: string[]) =>
  db
    .select(staffColumns)
    .from(staffMembers)
    .where(and(eq(staffMembers.organizationId, filter.organizationId), inArray(staffMembers.id, employeeIds)));

/**
 * The statements of the pay of named employees (a page another feature lists, such as the Fair Workweek report's),
 * to send in the caller's one batch: the rule sets, the currency and the locations' packs, then per IN list of at
 * most IDS_PER_STATEMENT ids their staff rows, shifts (every workweek of the range, whole), paid time off and the
 * change log's premiums. namedPayInputsOf reads their rows back, as readPayInputsPage would for the same employees.
 */
export function namedPayStatements(db: Database, filter: PayFilter, employeeIds: readonly string[]) {
  const byIds: PayFilter = { organizationId: filter.organizationId, startDate: filter.startDate, endDate: filter.endDate };
  return [
    ruleSetsStatement(db, byIds),
    organizationStatement(db, byIds),
    packsStatement(db, byIds),
    ...chunk(employeeIds, IDS_PER_STATEMENT).flatMap((ids) => [
      staffOfIdsStatement(db, byIds, ids),
      shiftsStatement(db, byIds, ids),
      timeOffStatement(db, byIds, ids),
      premiumsStatement(db, byIds, ids),
    ]),
  ];
}

/** The inputs of a pay computation from the rows of namedPayStatements, in their order. */
export function namedPayInputsOf(filter: PayFilter, rows: readonly unknown[]): PayInputs {
  const byIds: PayFilter = { organizationId: filter.organizationId, startDate: filter.startDate, endDate: filter.endDate };
  const [sets, organization, packs, ...perIds] = rows as unknown[][];
  const part = <T>(k: number) => perIds.filter((_, i) => i % 4 === k).flat() as T[];
  return payInputsOf(byIds, [
    sets as PayInputRows[0],
    part<PayInputRows[1][number]>(1),
    part<PayInputRows[2][number]>(2),
    organization as PayInputRows[3],
    part<PayInputRows[4][number]>(0),
    part<NonNullable<PayInputRows[5]>[number]>(3),
    packs as NonNullable<PayInputRows[6]>,
  ]);
}

/**
 * What a close reads of its pay inputs before it computes them page by page (readPayInputsPage): the rule sets and
 * the fingerprint its write guards on, in one batch with the caller's statements.
 */
export const closeInputStatements = (db: Database, filter: PayFilter, { fingerprint = true } = {}) =>
  [ruleSetsStatement(db, filter), organizationStatement(db, filter, fingerprint)] as const;

/** The rule sets (as pay applies them and as the API shows them) and the fingerprint of closeInputStatements' rows. */
export function closeInputsOf([sets, organization]: readonly [Awaited<Statements[0]>, Awaited<Statements[3]>]) {
  return {
    ruleSets: sets.map(ruleSetOfRow),
    ruleSetVersions: sets.map(serializePayRuleSet),
    fingerprint: organization[0]?.fingerprint ?? "",
  };
}
