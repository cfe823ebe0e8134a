import { payPeriodSnapshots, payPeriods, payRuleSetUses } from "@db/schema";
import { and, eq, sql } from "drizzle-orm";
import { chunk } from "@/data/chunk";
import type { Database, Statement } from "@/data/client";
import { organizationNow } from "@/data/clock";
import { FileWriter, getFile, MIN_PART_BYTES, partBytesOf, Sha256 } from "@/data/files";
import { type PayInputs, payInputsFingerprint, readPayInputsPage, timeOffWagesOf } from "@/data/pay/pay-inputs.data";
import { employeePayWire } from "@/data/pay/pay-lines.data";
import { whenDuplicate } from "@/data/write/constraint-problems";
import { guard } from "@/data/write/guard";
import { guardedBatch, type Writer } from "@/data/write/guarded-batch";
import { canonicalAround, canonicalJson } from "@/domain/canonical-json";
import { csvHeader, csvRecord } from "@/domain/csv";
import { computePay, type PayTotals } from "@/domain/pay-classification";
import { sumPayTotals } from "@/domain/pay-lines";
import { ruleSetsInForce } from "@/domain/pay-rules";
import { type EmployeeTotals, PAYROLL_COLUMNS, type PayrollRow, payrollAdjustments, payrollCsv } from "@/domain/payroll";
import { addMissingCodes, type FileEmployee, PROVIDER_FILES } from "@/domain/payroll-files";
import { DEFAULT_EARNING_CODES, PROVIDER_FORMATS, type ProviderFormat } from "@/domain/payroll-providers";
import { iso } from "@/platform/schemas/time";
import { conflict } from "@/problems/problem";
import { type CloseCheck, checkClose, latestSnapshotStatement, openShiftRefusal, readCloseDetail } from "./pay-close-check.data";
import { approvedRowsEvents, insertWorkersApprovals, workersApprovalProblems } from "./pay-period-approvals.data";
import { keepSettings, readSettings, settingsAsRead } from "./pay-period-settings.data";
import { actorOf, periodClosed, periodDetail, periodRowStatement, periodSummary, readPeriodState, spanOf } from "./pay-periods.data";
import { readPayrollIds, readPayrollSettings } from "./payroll-settings.data";
import {
  csvKeyOf,
  PAYROLL_CSV_TYPE,
  PAYROLL_JSON_TYPE,
  snapshotCsv,
  snapshotDocument,
  snapshotEmployees,
  snapshotKey,
  snapshotText,
  snapshotTotals,
} from "./snapshot.data";

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

/** rule_set_id, period_start_date, organization_id: 3 parameters a row, well under D1's 100 a statement. */
const USES_PER_STATEMENT = 30;

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

/** The CSV row of a snapshot's employee. */
const csvRowOf = (e: SnapshotEmployee): PayrollRow => ({
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
});

/** The CSV of a payroll: one row per staff member (a snapshot stored in D1 before R2, whose CSV is derived). */
const csvOf = (snapshot: Pick<Snapshot, "employees">) => payrollCsv(snapshot.employees.map(csvRowOf));

/** Employees a close computes per page (PAYROLL_PAGE_EMPLOYEES, else 500): one page's inputs and lines in memory. */
export const DEFAULT_CLOSE_PAGE = 500;

export interface CloseOptions {
  /** Employees per page. */
  pageEmployees?: number;
  /** Bytes per part of the snapshot's multipart objects (files.ts partBytesOf). */
  partBytes?: number;
  /** The organization's time (a sandbox's test clock): a period closes once it has ended by it. */
  now?: Date;
}

/** The close's options from the Worker's environment (PAYROLL_PAGE_EMPLOYEES, FILE_PART_BYTES). */
export function closeOptionsOf(env: object): CloseOptions {
  const page = Number((env as { PAYROLL_PAGE_EMPLOYEES?: string }).PAYROLL_PAGE_EMPLOYEES);
  return { pageEmployees: Number.isInteger(page) && page > 0 ? page : DEFAULT_CLOSE_PAGE, partBytes: partBytesOf(env) };
}

export const encoder = new TextEncoder();

/**
 * Computes the payroll page by page of employees (id order, readPayInputsPage) and writes it as it goes: each page's
 * employees as canonical JSON into `employees` (the JSON object, or a staging object on a re-close), their CSV rows
 * into `csv`. Keeps of each employee only the totals (the snapshot's totals and a re-close's adjustments) and the
 * span of their workweeks (the rule sets used). Heap: one page's inputs and lines, plus the writers' part buffers.
 */
export async function writeEmployees(
  db: Database,
  filter: { organizationId: string; startDate: string; endDate: string },
  pageEmployees: number,
  out: { employees: (bytes: Uint8Array) => Promise<void>; csv: FileWriter },
  /** Where to start (after this employee id), how many pages at most, and whether the CSV starts with its header. */
  range: { afterId?: string; maxPages?: number; header?: boolean } = {},
) {
  const totals: EmployeeTotals[] = [];
  let weeksFrom = filter.startDate;
  let weeksTo = filter.endDate;
  let afterId = range.afterId;
  let first = true;
  let pages = 0;
  if (range.header ?? true) await out.csv.write(csvHeader(PAYROLL_COLUMNS));
  while (true) {
    const page = await readPayInputsPage(db, filter, { limit: pageEmployees, afterId });
    const pay = computePay({ ...filter, ...page.inputs });
    let json = "";
    let csv = "";
    for (const employeePay of pay.employees) {
      const employee: SnapshotEmployee = {
        ...employeePayWire(employeePay, page.inputs.employees),
        name: page.inputs.employees.get(employeePay.employeeId)?.name ?? "",
      };
      json += (first ? "" : ",") + canonicalJson(employee);
      first = false;
      csv += csvRecord(PAYROLL_COLUMNS, csvRowOf(employee));
      const { lines: _, externalId: __, externalPayrollId: ___, currencyCode: ____, name: _____, ...figures } = employee;
      totals.push(figures);
      for (const week of employee.workweeks) {
        if (week.startDate < weeksFrom) weeksFrom = week.startDate;
        if (week.endDate > weeksTo) weeksTo = week.endDate;
      }
    }
    if (json) await out.employees(encoder.encode(json));
    if (csv) await out.csv.write(csv);
    pages++;
    if (!page.more) return { totals, weeksFrom, weeksTo, afterId: page.employeeIds.at(-1) ?? afterId, more: false };
    afterId = page.employeeIds.at(-1);
    if (range.maxPages !== undefined && pages >= range.maxPages) return { totals, weeksFrom, weeksTo, afterId, more: true };
  }
}

/** The bytes of an object, piece by piece, into `sink`. */
export async function copyObject(files: R2Bucket, key: string, sink: (bytes: Uint8Array) => Promise<void>) {
  const object = await getFile(files, key);
  if (!object) throw new Error(`The staged payroll ${key} is missing from FILES.`);
  const reader = object.body.getReader();
  while (true) {
    const { done, value } = await reader.read();
    if (done) return;
    await sink(value);
  }
}

/** The canonical JSON's bytes before its employees' (the adjustments, closedAt, closedBy), ending in their `[`. */
export const snapshotHead = (adjustments: Snapshot["adjustments"], closedAt: Date, closedBy: string) =>
  encoder.encode(`${canonicalAround({ adjustments, closedAt: iso(closedAt), closedBy, employees: null }, "employees")[0]}[`);

/** The snapshot's members after its employees: what the canonical JSON ends with (snapshotTail). */
export function snapshotRest(input: {
  span: { id: string; startDate: string; endDate: string };
  version: number;
  inputs: Pick<PayInputs, "ruleSets" | "ruleSetVersions">;
  weeksFrom: string;
  weeksTo: string;
  sum: PayTotals;
}) {
  const ids = new Set(ruleSetsInForce(input.inputs.ruleSets, input.weeksFrom, input.weeksTo));
  return {
    employees: null,
    endDate: input.span.endDate,
    periodId: input.span.id,
    ruleSets: input.inputs.ruleSetVersions.filter((set) => ids.has(set.id)).sort((a, b) => (a.id < b.id ? -1 : a.id > b.id ? 1 : 0)),
    startDate: input.span.startDate,
    totals: input.sum,
    version: input.version,
  };
}

/** The bytes after the employees' `[…`: of the canonical JSON (no hash), or of the document (with snapshotHash). */
export const snapshotTail = (rest: ReturnType<typeof snapshotRest>, snapshotHash?: string) =>
  encoder.encode(`]${canonicalAround(snapshotHash === undefined ? rest : { ...rest, snapshotHash }, "employees")[1]}`);

/**
 * Writes a close's objects, streamed (never whole in memory): the JSON document (the snapshot's canonical JSON with
 * snapshotHash among its members) and its CSV, each an R2 multipart object completed only once whole. The canonical
 * JSON's members are in key order — adjustments, closedAt, closedBy, employees, … — so a first close (no
 * adjustments) writes its employees straight into the document; a re-close, whose adjustments need every employee's
 * totals first, stages the employees in an object of their own and copies it in after the adjustments (then deletes
 * it). snapshotHash is the SHA-256 of the canonical JSON, hashed as it is written. On any failure every upload is
 * aborted: nothing is left under the close's keys. (A close job writes the same bytes over several steps:
 * pay-close-assemble.data.ts.)
 */
export async function writeSnapshot(input: {
  db: Database;
  files: R2Bucket;
  options: Required<Omit<CloseOptions, "now">>;
  filter: { organizationId: string; startDate: string; endDate: string };
  span: { id: string; startDate: string; endDate: string };
  version: number;
  closedAt: Date;
  closedBy: string;
  inputs: Pick<PayInputs, "ruleSets" | "ruleSetVersions">;
  previous: EmployeeTotals[] | null;
}) {
  const { files, filter, span, options } = input;
  const key = snapshotKey({ organizationId: filter.organizationId, periodStartDate: span.startDate, version: input.version });
  const json = new FileWriter(files, key, PAYROLL_JSON_TYPE, options.partBytes);
  const csv = new FileWriter(files, csvKeyOf(key), PAYROLL_CSV_TYPE, options.partBytes);
  const staged = input.previous ? new FileWriter(files, `${key}.employees`, PAYROLL_JSON_TYPE, options.partBytes) : null;
  const canonical = new Sha256();
  const both = async (bytes: Uint8Array) => {
    await canonical.update(bytes);
    await json.write(bytes);
  };
  const head = (adjustments: Snapshot["adjustments"]) => snapshotHead(adjustments, input.closedAt, input.closedBy);
  try {
    if (!staged) await both(head([]));
    const employees = await writeEmployees(input.db, filter, options.pageEmployees, {
      employees: staged ? (bytes) => staged.write(bytes) : both,
      csv,
    });
    if (staged) {
      await staged.finish();
      await both(head(input.previous ? payrollAdjustments(input.previous, employees.totals) : []));
      await copyObject(files, staged.key, both);
    }
    const { totals, weeksFrom, weeksTo } = employees;
    const rest = snapshotRest({ span, version: input.version, inputs: input.inputs, weeksFrom, weeksTo, sum: sumPayTotals(totals) });
    await canonical.update(snapshotTail(rest));
    const hash = await canonical.hex();
    await json.write(snapshotTail(rest, hash));
    const object = await json.finish();
    await csv.finish();
    return { object, hash, employeeCount: totals.length };
  } catch (error) {
    await Promise.all([json.abort(), csv.abort(), staged?.abort()]);
    throw error;
  } finally {
    if (staged) await files.delete(staged.key).catch(() => undefined);
  }
}

/** The stored objects of a close: the JSON's key, size and SHA-256, and the document's snapshotHash. */
export interface ClosedObjects {
  object: { key: string; size: number; sha256: string };
  hash: string;
}

/**
 * Commits a close in one guarded batch: the settings kept, the snapshot row naming the objects (key, size, SHA-256),
 * the missing approvals (approveAll: chosen and written in SQL, whatever their number), the period CLOSED at
 * version + 1, the rule sets it used marked immutable, and the events; `trailing` statements join the same batch (a
 * job's end). Answers the closed period's row (what periodDetail shows of it). Nothing in it grows with the staff:
 * `pay_period.closed` counts the approvals from the check's counts, which the fingerprint guard holds to.
 */
export async function commitClose(
  writer: Writer,
  check: CloseCheck,
  closed: ClosedObjects,
  by: { closedAt: Date; closedBy: string },
  trailing: Statement[] = [],
) {
  const { db } = writer;
  const { span, inputs, frozen, version, counts } = check;
  const { organizationId } = check.filter;
  const { closedAt, closedBy } = by;
  const used = ruleSetsInForce(inputs.ruleSets, span.startDate, span.endDate);
  const period = {
    status: "CLOSED" as const,
    version,
    closedAt,
    closedBy,
    snapshotHash: closed.hash,
    frozenFrom: frozen.from,
    frozenTo: frozen.to,
  };
  // Read in the batch: the fingerprint guard (inputsAsRead) holds it to the wages the snapshot was computed with.
  const timeOffWages = timeOffWagesOf(organizationId, span.startDate, span.endDate);
  const row = {
    organizationId,
    startDate: span.startDate,
    endDate: span.endDate,
    ...period,
    reopenedAt: null,
    reopenedBy: null,
    reopenReason: null,
  };
  const answered = {
    ...row,
    timeOffWages: null,
    ...(check.row && { reopenedAt: check.row.reopenedAt, reopenedBy: check.row.reopenedBy, reopenReason: check.row.reopenReason }),
  };
  // Once closed every worker is approved: the employees are the approved ones, those before and those it approves.
  const approvedCount = counts.approved + counts.unapproved;
  const summary = {
    ...periodSummary(periodDetail({ span, row: answered, approvals: [], workers: [] })),
    approvedCount,
    employeeCount: approvedCount,
  };
  const unapproved = counts.unapproved > 0;
  await guardedBatch(
    writer,
    [
      keepSettings(db, organizationId, check.settings),
      db.insert(payPeriodSnapshots).values({
        organizationId,
        periodStartDate: span.startDate,
        version,
        snapshotHash: inputsAsRead.sql(closed.hash, organizationId, span, inputs.fingerprint),
        objectKey: closed.object.key,
        objectSize: closed.object.size,
        objectSha256: closed.object.sha256,
      }),
      // After the snapshot: its fingerprint counts the approvals as read.
      ...(unapproved ? [insertWorkersApprovals(db, organizationId, span, closedBy, closedAt)] : []),
      db
        .insert(payPeriods)
        .values({ ...row, timeOffWages })
        .onConflictDoUpdate({ target: [payPeriods.organizationId, payPeriods.startDate], set: { ...period, timeOffWages } }),
      ...chunk(used, USES_PER_STATEMENT).map((ids) =>
        db
          .insert(payRuleSetUses)
          .values(ids.map((ruleSetId) => ({ ruleSetId, organizationId, periodStartDate: span.startDate })))
          .onConflictDoNothing(),
      ),
    ],
    [
      settingsAsRead,
      ...workersApprovalProblems(span, () => openShiftRefusal(db, organizationId, { from: span.startDate, to: span.endDate })),
      inputsAsRead,
      whenDuplicate(payPeriodSnapshots, () => periodClosed(span.id)),
    ],
    {
      events: [
        ...(unapproved ? [approvedRowsEvents(organizationId, span, closedBy, closedAt)] : []),
        { type: "pay_period.closed", organizationId, occurredAt: closedAt, data: summary },
      ],
      trailing,
    },
  );
  return answered;
}

/** The snapshot row of a period's version, if one is committed (a job's commit redelivered finds its own). */
export async function committedSnapshot(db: Database, organizationId: string, startDate: string) {
  const [row] = await latestSnapshotStatement(db, organizationId, startDate);
  return row ?? null;
}

/**
 * POST …/close within the request. checkClose, then the pay lines page by page of employees streamed into the
 * snapshot's objects in R2 (writeSnapshot: new keys, never over an object, multipart), and only then commitClose's
 * one batch. Guards make a race a 409 that writes nothing:
 *   pay_period_snapshots.snapshot NULL → shifts, time off or rule sets changed since the read (PAY_PERIOD_CHANGED)
 *   pay_period_snapshots primary key   → another close of this version landed first (PAY_PERIOD_CLOSED)
 * The pages are read after the fingerprint: a change between two pages changes the fingerprint, so the batch refuses.
 * Answers the period with every employee's approval (read after the check: the fingerprint guard holds them too).
 */
export async function closePeriod(
  writer: Writer,
  files: R2Bucket,
  organizationId: string,
  periodId: string,
  approveAll: boolean,
  options: CloseOptions = {},
  checked?: CloseCheck,
) {
  const { db } = writer;
  const now = options.now ?? (await organizationNow({ ...writer, organizationId }));
  const check = checked ?? (await checkClose(writer, organizationId, periodId, approveAll, now));
  const closedAt = now;
  const closedBy = actorOf(writer.principal);
  const detail = await readCloseDetail(db, organizationId, check.span);
  const previous = check.previousRow ? await snapshotTotals(files, check.previousRow) : null;
  // The objects first, the row last: a batch that fails leaves objects no row names (swept), never a row without them.
  const { object, hash } = await writeSnapshot({
    db,
    files,
    options: { pageEmployees: options.pageEmployees ?? DEFAULT_CLOSE_PAGE, partBytes: options.partBytes ?? MIN_PART_BYTES },
    filter: check.filter,
    span: check.span,
    version: check.version,
    closedAt,
    closedBy,
    inputs: check.inputs,
    previous,
  });
  const row = await commitClose(writer, check, { object, hash }, { closedAt, closedBy });
  const approved = new Set(detail.approvals.map((a) => a.employeeId));
  const approvedNow = detail.workers.filter((w) => !approved.has(w.employeeId));
  return periodDetail({
    span: check.span,
    row,
    approvals: [
      ...detail.approvals,
      ...approvedNow.map(({ employeeId }) => ({
        organizationId,
        periodStartDate: check.span.startDate,
        periodEndDate: check.span.endDate,
        employeeId,
        approvedAt: closedAt,
        approvedBy: closedBy,
      })),
    ],
    workers: detail.workers,
  });
}

/** POST …/reopen: the period OPEN again, approvals kept; the next close stores version + 1 with adjustments. */
export async function reopenPeriod(writer: Writer, organizationId: string, periodId: string, reason: string) {
  const { db } = writer;
  const state = await readPeriodState(db, organizationId, periodId);
  const { span, row } = state;
  if (row?.status !== "CLOSED") throw periodOpen(span.id, "is not closed");
  const reopenedAt = await organizationNow({ ...writer, organizationId });
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

/** The latest snapshot of a closed period (409 PAY_PERIOD_OPEN before its first close). */
async function latestSnapshot(db: Database, organizationId: string, periodId: string) {
  const span = spanOf(await readSettings(db, organizationId), periodId);
  const [periodRows, snapshots] = await db.batch([
    periodRowStatement(db, organizationId, span.startDate),
    latestSnapshotStatement(db, organizationId, span.startDate),
  ]);
  const stored = snapshots[0];
  if (!periodRows[0] || !stored) throw periodOpen(span.id, "has not been closed yet: it has no payroll");
  return { span, stored };
}

/**
 * GET …/payroll?format=adp-wfn|gusto|check|paychex: the latest snapshot in the provider's import shape
 * (domain/payroll-files.ts), read from its stored object twice, one staff member at a time: first what the file
 * needs (their ids at the provider, a code for each line kind: anything missing is a 409 naming it, before any byte
 * is written), then the file itself, its pieces streamed as they are built. Never recomputed: the same snapshot,
 * codes and ids give the same bytes.
 */
export async function providerPayroll(db: Database, files: R2Bucket, organizationId: string, periodId: string, format: ProviderFormat) {
  const provider = PROVIDER_FORMATS[format];
  const { span, stored } = await latestSnapshot(db, organizationId, periodId);
  const settings = await readPayrollSettings(db, organizationId);
  const fileSettings = {
    companyCode: settings.companyCode,
    batchId: settings.batchId,
    earningCodes: settings.provider === provider ? settings.earningCodes : DEFAULT_EARNING_CODES[provider],
  };
  const employeeIds: string[] = [];
  const codes = new Set<string>();
  for await (const employee of snapshotEmployees<FileEmployee>(files, stored)) {
    employeeIds.push(employee.employeeId);
    addMissingCodes(employee, fileSettings.earningCodes, codes);
  }
  const ids = await readPayrollIds(db, organizationId, employeeIds);
  const missing = {
    payrollIds: employeeIds.filter((id) => !ids.get(id)?.[provider]).sort(),
    earningCodes: [...codes].sort(),
  };
  if (missing.payrollIds.length || missing.earningCodes.length) {
    throw conflict(
      "PAYROLL_MAPPING_INCOMPLETE",
      `The ${provider} payroll file of ${span.id} needs every staff member's payrollIds.${provider} and an earning code for every line kind.`,
      { missing },
    );
  }
  const file = PROVIDER_FILES[provider];
  const writer = file.writer({ periodId: span.id, startDate: span.startDate, endDate: span.endDate }, fileSettings);
  async function* pieces() {
    yield writer.head;
    for await (const employee of snapshotEmployees<FileEmployee>(files, stored)) {
      yield writer.employee(employee, ids.get(employee.employeeId)![provider]!);
    }
    yield writer.tail();
  }
  return { pieces: pieces(), contentType: file.contentType, filename: `payroll-${span.id}-v${stored.version}-${format}.${file.extension}` };
}

/**
 * GET …/payroll: the latest close's snapshot as stored, streamed from its R2 object (JSON, or the CSV object the close
 * wrote beside it); a snapshot stored in D1 before R2 is unpacked, its CSV derived.
 */
export async function payroll(db: Database, files: R2Bucket, organizationId: string, periodId: string, format: "json" | "csv") {
  const { span, stored } = await latestSnapshot(db, organizationId, periodId);
  if (format === "json") return { json: await snapshotDocument(files, stored), size: stored.objectSize };
  const csv = (await snapshotCsv(files, stored)) ?? csvOf(JSON.parse(await snapshotText(files, stored)) as Snapshot);
  return { csv, filename: `payroll-${span.id}-v${stored.version}.csv` };
}
