import { payPeriodSnapshots, payPeriods, payRuleSetUses, shifts } from "@db/schema";
import { and, desc, eq, gte, isNull, lte, sql } from "drizzle-orm";
import { chunk } from "@/data/chunk";
import type { Database } from "@/data/client";
import { whenDuplicate } from "@/data/write/constraint-problems";
import { guard } from "@/data/write/guard";
import { guardedBatch, type Writer } from "@/data/write/guarded-batch";
import { canonicalHash, canonicalJson } from "@/domain/canonical-json";
import { addDays, businessDate, offsetMinutesAt } from "@/domain/local-time";
import { computePay, type PayTotals } from "@/domain/pay-classification";
import { type FrozenDates, frozenDates, periodEnded } from "@/domain/pay-period-freeze";
import type { PayPeriodSpan } from "@/domain/pay-periods";
import { ruleSetsInForce } from "@/domain/pay-rules";
import { type PayrollRow, payrollAdjustments, payrollCsv } from "@/domain/payroll";
import { iso } from "@/platform/schemas/time";
import { conflict } from "@/problems/problem";
import { type PayInputs, payInputStatements, payInputsFingerprint, payInputsOf, premiumInputStatements } from "./pay-inputs.data";
import { employeePayWire } from "./pay-lines.data";
import { approvalProblems, approvedRowsEvents, insertApprovals, refuseOwnApproval } from "./pay-period-approvals.data";
import { keepSettings, readSettings, settingsAsRead } from "./pay-period-settings.data";
import {
  actorOf,
  approvalsStatement,
  openShiftInPeriod,
  periodClosed,
  periodDetail,
  periodRowStatement,
  periodSummary,
  readPeriodState,
  spanOf,
  workersOf,
} from "./pay-periods.data";
import { payrollDocument, putSnapshot, snapshotCsv, snapshotDocument, snapshotText } from "./snapshot.data";

const inputsChanged = () =>
  conflict(
    "PAY_PERIOD_CHANGED",
    "Shifts, time off or pay rules of the period changed while it was being closed: nothing was written. Close it again.",
  );

/**
 * pay_period_snapshots.snapshot_hash: the snapshot's hash, NULL when the period's pay inputs no longer have the
 * fingerprint the close read (a shift, time off or rule set changed while it was being closed).
 */
const inputsAsRead = guard({
  column: payPeriodSnapshots.snapshotHash,
  problem: inputsChanged,
  sql: (hash: string, organizationId: string, span: { startDate: string; endDate: string }, fingerprint: string) =>
    sql`(SELECT ${hash} WHERE ${payInputsFingerprint(organizationId, span.startDate, span.endDate)} = ${fingerprint})`,
});

const periodOpen = (id: string, why: string) => conflict("PAY_PERIOD_OPEN", `The pay period ${id} ${why}.`);

const periodNotEnded = (span: PayPeriodSpan, frozen: FrozenDates | null) =>
  conflict(
    "PAY_PERIOD_NOT_ENDED",
    frozen && span.endDate < frozen.to
      ? `The pay period ${span.id} cannot be closed before ${frozen.to}, the last day of the last workweek overlapping it, has ended.`
      : `The pay period ${span.id} ends on ${span.endDate}: it cannot be closed before that day has ended.`,
    { periodId: span.id },
  );

/** Open shifts dated up to 6 days either side of the period: a close freezes at most that far (domain/pay-period-freeze). */
const openShiftsAround = (db: Database, organizationId: string, span: PayPeriodSpan) =>
  db
    .select({ employeeId: shifts.employeeId, businessDate: shifts.businessDate })
    .from(shifts)
    .where(
      and(
        eq(shifts.organizationId, organizationId),
        gte(shifts.businessDate, addDays(span.startDate, -6)),
        lte(shifts.businessDate, addDays(span.endDate, 6)),
        isNull(shifts.endAt),
        isNull(shifts.deletedAt),
      ),
    );

/** rule_set_id, period_start_date, organization_id: 3 parameters a row, well under D1's 100 a statement. */
const USES_PER_STATEMENT = 30;

/** The latest snapshot of a period as stored (packed). */
const latestSnapshotStatement = (db: Database, organizationId: string, startDate: string) =>
  db
    .select()
    .from(payPeriodSnapshots)
    .where(and(eq(payPeriodSnapshots.organizationId, organizationId), eq(payPeriodSnapshots.periodStartDate, startDate)))
    .orderBy(desc(payPeriodSnapshots.version))
    .limit(1);

type SnapshotEmployee = ReturnType<typeof employeePayWire> & { name: string };

/** A close's payroll as stored; its canonical JSON is what snapshotHash hashes. */
interface Snapshot {
  periodId: string;
  startDate: string;
  endDate: string;
  version: number;
  closedAt: string;
  closedBy: string;
  employees: SnapshotEmployee[];
  totals: PayTotals;
  adjustments: ReturnType<typeof payrollAdjustments>;
  /** The rule set versions in force on the workdays of the workweeks the close computed. */
  ruleSets: PayInputs["ruleSetVersions"];
}

/** The versions of the sets in force from the first workweek's start to the last one's end (else the period). */
function ruleSetsUsed(inputs: PayInputs, employees: readonly SnapshotEmployee[], span: { startDate: string; endDate: string }) {
  let from = span.startDate;
  let to = span.endDate;
  for (const week of employees.flatMap((e) => e.workweeks)) {
    if (week.startDate < from) from = week.startDate;
    if (week.endDate > to) to = week.endDate;
  }
  const ids = new Set(ruleSetsInForce(inputs.ruleSets, from, to));
  return inputs.ruleSetVersions.filter((set) => ids.has(set.id)).sort((a, b) => (a.id < b.id ? -1 : a.id > b.id ? 1 : 0));
}

/** The payroll of a close: every employee's pay lines of the period, totals, and adjustments against the previous close. */
async function buildSnapshot(input: {
  span: { id: string; startDate: string; endDate: string };
  version: number;
  closedAt: Date;
  closedBy: string;
  pay: ReturnType<typeof computePay>;
  inputs: PayInputs;
  previous: Snapshot | null;
}) {
  const employees = input.pay.employees.map((pay) => ({
    ...employeePayWire(pay, input.inputs.employees),
    name: input.inputs.employees.get(pay.employeeId)?.name ?? "",
  }));
  const snapshot: Snapshot = {
    periodId: input.span.id,
    startDate: input.span.startDate,
    endDate: input.span.endDate,
    version: input.version,
    closedAt: iso(input.closedAt),
    closedBy: input.closedBy,
    employees,
    totals: input.pay.totals,
    adjustments: input.previous ? payrollAdjustments(input.previous.employees, employees) : [],
    ruleSets: ruleSetsUsed(input.inputs, employees, input.span),
  };
  const canonical = canonicalJson(snapshot);
  return { snapshot, canonical, hash: await canonicalHash(snapshot) };
}

/** The CSV of a payroll: one row per staff member. */
const csvOf = (snapshot: Pick<Snapshot, "employees">) =>
  payrollCsv(
    snapshot.employees.map(
      (e): PayrollRow => ({
        employeeId: e.employeeId,
        externalId: e.externalId,
        externalPayrollId: e.externalPayrollId,
        name: e.name,
        currencyCode: e.currencyCode,
        regularMinutes: e.regularMinutes,
        overtimeMinutes: e.overtimeMinutes,
        doubleTimeMinutes: e.doubleTimeMinutes,
        penaltyHours: e.penaltyHours,
        timeOffHours: e.timeOffHours,
        grossPay: e.grossPay,
      }),
    ),
  );

/**
 * POST …/close. Reads the period and its pay inputs, computes the pay lines, writes the snapshot's objects to R2
 * (snapshot.data.ts: new keys, never over an object), and only then writes in one batch: the settings kept, the
 * missing approvals (approveAll), the snapshot row naming the objects (key, size, SHA-256), the period CLOSED at version + 1,
 * the rule sets it used marked immutable, and the events. Guards make a race a 409 that writes nothing:
 *   pay_period_snapshots.snapshot NULL → shifts, time off or rule sets changed since the read (PAY_PERIOD_CHANGED)
 *   pay_period_snapshots primary key   → another close of this version landed first (PAY_PERIOD_CLOSED)
 */
export async function closePeriod(writer: Writer, files: R2Bucket, organizationId: string, periodId: string, approveAll: boolean) {
  const { db } = writer;
  const settings = await readSettings(db, organizationId);
  const span = spanOf(settings, periodId);
  const now = new Date();
  const today = businessDate(now, offsetMinutesAt(settings.timezone, now));
  if (span.endDate >= today) throw periodNotEnded(span, null);
  const filter = { organizationId, startDate: span.startDate, endDate: span.endDate };
  // One round trip for the pay inputs, the period and its approvals, the previous snapshot and the open shifts.
  const [sets, shiftRows, timeOffRows, organization, staffRows, periodRows, approvals, previousRows, openRows, premiumRows, packRows] =
    await db.batch([
      ...payInputStatements(db, filter, { fingerprint: true }),
      periodRowStatement(db, organizationId, span.startDate),
      approvalsStatement(db, organizationId, span.startDate),
      latestSnapshotStatement(db, organizationId, span.startDate),
      openShiftsAround(db, organizationId, span),
      ...premiumInputStatements(db, filter),
    ]);
  const state = { settings, span, row: periodRows[0], approvals, workers: workersOf(shiftRows, span) };
  if (state.row?.status === "CLOSED") throw periodClosed(span.id);
  const inputs = payInputsOf(filter, [sets, shiftRows, timeOffRows, organization, staffRows, premiumRows, packRows]);
  const frozen = frozenDates(span, inputs.ruleSets);
  if (!periodEnded(span, frozen, today)) throw periodNotEnded(span, frozen);
  // A shift open on a frozen date could never be clocked out.
  const stillOpen = [
    ...new Set(openRows.filter((o) => o.businessDate >= frozen.from && o.businessDate <= frozen.to).map((o) => o.employeeId)),
  ];
  if (stillOpen.length) throw openShiftInPeriod(stillOpen);
  const approved = new Set(state.approvals.map((a) => a.employeeId));
  const unapproved = state.workers.map((w) => w.employeeId).filter((id) => !approved.has(id));
  if (unapproved.length && !approveAll) {
    throw conflict("TIMESHEETS_NOT_APPROVED", "Timesheets of the period are not approved: approve them, or close with approveAll.", {
      employeeIds: unapproved,
    });
  }
  // approveAll approves the closer's own timesheet too: not theirs to approve.
  refuseOwnApproval(writer, unapproved);
  const pay = computePay({ ...filter, ...inputs });
  const version = (state.row?.version ?? 0) + 1;
  const closedAt = now;
  const closedBy = actorOf(writer.principal);
  const previous = previousRows[0] ? (JSON.parse(await snapshotText(files, previousRows[0])) as Snapshot) : null;
  const { snapshot, canonical, hash } = await buildSnapshot({ span, version, closedAt, closedBy, pay, inputs, previous });
  // The objects first, the row last: a batch that fails leaves objects no row names (swept), never a row without them.
  const object = await putSnapshot(
    files,
    { organizationId, periodStartDate: span.startDate, version },
    payrollDocument(canonical, hash),
    csvOf(snapshot),
  );
  const used = ruleSetsInForce(inputs.ruleSets, span.startDate, span.endDate);
  const closed = {
    status: "CLOSED" as const,
    version,
    closedAt,
    closedBy,
    snapshotHash: hash,
    frozenFrom: frozen.from,
    frozenTo: frozen.to,
  };
  const row = {
    organizationId,
    startDate: span.startDate,
    endDate: span.endDate,
    ...closed,
    reopenedAt: null,
    reopenedBy: null,
    reopenReason: null,
  };
  const answer = periodDetail({
    span,
    row: {
      ...row,
      ...(state.row && { reopenedAt: state.row.reopenedAt, reopenedBy: state.row.reopenedBy, reopenReason: state.row.reopenReason }),
    },
    approvals: [
      ...state.approvals,
      ...unapproved.map((employeeId) => ({
        organizationId,
        periodStartDate: span.startDate,
        periodEndDate: span.endDate,
        employeeId,
        approvedAt: closedAt,
        approvedBy: closedBy,
      })),
    ],
    workers: state.workers,
  });
  await guardedBatch(
    writer,
    [
      keepSettings(db, organizationId, state.settings),
      db.insert(payPeriodSnapshots).values({
        organizationId,
        periodStartDate: span.startDate,
        version,
        snapshotHash: inputsAsRead.sql(hash, organizationId, span, inputs.fingerprint),
        objectKey: object.key,
        objectSize: object.size,
        objectSha256: object.sha256,
      }),
      // After the snapshot: its fingerprint counts the approvals as read.
      ...(unapproved.length ? [insertApprovals(db, organizationId, span, unapproved, closedBy, closedAt)] : []),
      db
        .insert(payPeriods)
        .values(row)
        .onConflictDoUpdate({ target: [payPeriods.organizationId, payPeriods.startDate], set: closed }),
      ...chunk(used, USES_PER_STATEMENT).map((ids) =>
        db
          .insert(payRuleSetUses)
          .values(ids.map((ruleSetId) => ({ ruleSetId, organizationId, periodStartDate: span.startDate })))
          .onConflictDoNothing(),
      ),
    ],
    [settingsAsRead, ...approvalProblems(span, unapproved), inputsAsRead, whenDuplicate(payPeriodSnapshots, () => periodClosed(span.id))],
    {
      events: [
        ...(unapproved.length ? [approvedRowsEvents(organizationId, span, closedBy, closedAt)] : []),
        { type: "pay_period.closed", organizationId, occurredAt: closedAt, data: periodSummary(answer) },
      ],
    },
  );
  return answer;
}

/** POST …/reopen: the period OPEN again, approvals kept; the next close stores version + 1 with adjustments. */
export async function reopenPeriod(writer: Writer, organizationId: string, periodId: string, reason: string) {
  const { db } = writer;
  const state = await readPeriodState(db, organizationId, periodId);
  const { span, row } = state;
  if (row?.status !== "CLOSED") throw periodOpen(span.id, "is not closed");
  const reopenedAt = new Date();
  const reopened = { status: "OPEN" as const, reopenedAt, reopenedBy: actorOf(writer.principal), reopenReason: reason };
  const answer = periodDetail({ ...state, row: { ...row, ...reopened } });
  const [result] = await guardedBatch(
    writer,
    [
      db
        .update(payPeriods)
        .set(reopened)
        .where(
          and(
            eq(payPeriods.organizationId, organizationId),
            eq(payPeriods.startDate, span.startDate),
            eq(payPeriods.status, "CLOSED"),
            eq(payPeriods.version, row.version),
          ),
        ),
    ],
    [],
    { events: [{ type: "pay_period.reopened", organizationId, occurredAt: reopenedAt, data: periodSummary(answer), whenChanged: true }] },
  );
  if (result.meta.changes === 0) throw periodOpen(span.id, "was reopened meanwhile");
  return answer;
}

/**
 * GET …/payroll: the latest close's snapshot as stored, streamed from its R2 object (JSON, or the CSV object the close
 * wrote beside it); a snapshot stored in D1 before R2 is unpacked, its CSV derived.
 */
export async function payroll(db: Database, files: R2Bucket, organizationId: string, periodId: string, format: "json" | "csv") {
  const span = spanOf(await readSettings(db, organizationId), periodId);
  const [periodRows, snapshots] = await db.batch([
    periodRowStatement(db, organizationId, span.startDate),
    latestSnapshotStatement(db, organizationId, span.startDate),
  ]);
  const row = periodRows[0];
  const stored = snapshots[0];
  if (!row || !stored) throw periodOpen(span.id, "has not been closed yet: it has no payroll");
  if (format === "json") return { json: await snapshotDocument(files, stored), size: stored.objectSize };
  const csv = (await snapshotCsv(files, stored)) ?? csvOf(JSON.parse(await snapshotText(files, stored)) as Snapshot);
  return { csv, filename: `payroll-${span.id}-v${stored.version}.csv` };
}
