import { type CsvColumn, csvHeader, csvRecord } from "./csv";
import { amountToCents, centsToAmount } from "./pay-amounts";
import { type CodedLine, earningCodeOf, type PayrollIds, type PayrollProvider } from "./payroll-providers";

/*
 * A closed payroll in a provider's own import shape, built from its frozen snapshot alone (the same snapshot and the
 * same mapping give the same bytes). Each builder is pure: the snapshot's staff members in, text out.
 */

/** A snapshot line as the files read it. */
export interface FileLine extends CodedLine {
  date: string;
  shiftId: string | null;
  minutes: number;
  rate: number | null;
  amount: number | null;
}

export interface FileEmployee {
  employeeId: string;
  name: string;
  grossPay: number;
  lines: readonly FileLine[];
  workweeks: readonly { startDate: string; endDate: string }[];
}

export interface FileSettings {
  companyCode: string | null;
  batchId: string | null;
  earningCodes: Readonly<Record<string, string>>;
}

export interface FilePayroll {
  periodId: string;
  startDate: string;
  endDate: string;
  employees: readonly FileEmployee[];
}

/** What a file cannot be built without: the staff members with no id at the provider, the line keys with no code. */
export interface MissingMappings {
  payrollIds: string[];
  earningCodes: string[];
}

/** Every staff member without an id at `provider` and every line key without a code (sorted; empty when complete). */
export function missingMappings(
  payroll: FilePayroll,
  provider: PayrollProvider,
  ids: ReadonlyMap<string, PayrollIds>,
  settings: FileSettings,
): MissingMappings {
  const earningCodes = new Set<string>();
  for (const employee of payroll.employees) addMissingCodes(employee, settings.earningCodes, earningCodes);
  return {
    payrollIds: payroll.employees
      .map((e) => e.employeeId)
      .filter((id) => !ids.get(id)?.[provider])
      .sort(),
    earningCodes: [...earningCodes].sort(),
  };
}

/** Adds to `into` the key of each of a staff member's lines that has no code (time off named by its policy type). */
export function addMissingCodes(employee: Pick<FileEmployee, "lines">, codes: FileSettings["earningCodes"], into: Set<string>): void {
  for (const line of employee.lines) {
    if (earningCodeOf(codes, line) === null)
      into.add(line.kind === "TIME_OFF" && line.policyType ? `TIME_OFF:${line.policyType}` : line.kind);
  }
}

/** Lines summed by a key: minutes and cents, the key's fields kept. */
interface Item {
  code: string;
  kind: string;
  rate: number | null;
  minutes: number;
  cents: number;
  date: string;
  workweek: string;
  shiftId: string | null;
}

const hoursOf = (minutes: number) => Number((minutes / 60).toFixed(4));
const amountText = (cents: number) => centsToAmount(cents).toFixed(2);

/** The workweek (its start date) holding a date. */
const workweekOf = (employee: FileEmployee, date: string) =>
  employee.workweeks.find((w) => w.startDate <= date && date <= w.endDate)?.startDate ?? "";

/** An employee's lines summed by `keyOf` (first seen first): each sum of cents exact, so the items add up to grossPay. */
function itemsOf(
  employee: FileEmployee,
  codes: FileSettings["earningCodes"],
  keyOf: (item: Omit<Item, "minutes" | "cents">) => string,
): Item[] {
  const items = new Map<string, Item>();
  for (const line of employee.lines) {
    const base = {
      code: earningCodeOf(codes, line)!,
      kind: line.kind,
      rate: line.rate,
      date: line.date,
      workweek: workweekOf(employee, line.date),
      shiftId: line.shiftId,
    };
    const key = keyOf(base);
    const item = items.get(key) ?? { ...base, minutes: 0, cents: 0 };
    item.minutes += line.minutes;
    item.cents += amountToCents(line.amount ?? 0);
    items.set(key, item);
  }
  return [...items.values()];
}

/**
 * The kinds paid for minutes worked: a time sheet's hours. Every other line (time off, a premium, reporting-time or
 * call-in minutes paid and not worked, an award's penalty on hours already counted) is no hours worked.
 */
const WORKED_KINDS = new Set(["REGULAR", "OVERTIME", "DOUBLE_TIME"]);

/** Flat premiums (no rate): an amount, no hours. */
const isFlat = (item: Item) => item.rate === null || (item.minutes === 0 && item.cents !== 0);

interface AdpRow {
  item: Item;
  fileNumber: string;
  settings: FileSettings;
}

/**
 * ADP Workforce Now Paydata (CSV, header first: Co Code, Batch ID and File # in the first three positions). One row
 * per staff member, FLSA workweek, earning code and rate: REGULAR hours in Reg Hours, OVERTIME in O/T Hours, other
 * hours in Hours 3 Code/Amount, flat premiums in Earnings 3 Code/Amount; Temp Rate is the rate Shiftline paid.
 */
export const ADP_COLUMNS: readonly CsvColumn<AdpRow>[] = [
  { header: "Co Code", value: (r) => r.settings.companyCode, text: true },
  { header: "Batch ID", value: (r) => r.settings.batchId, text: true },
  { header: "File #", value: (r) => r.fileNumber, text: true },
  { header: "Reg Hours", value: (r) => (r.item.kind === "REGULAR" ? hoursOf(r.item.minutes) : null) },
  { header: "O/T Hours", value: (r) => (r.item.kind === "OVERTIME" ? hoursOf(r.item.minutes) : null) },
  { header: "Hours 3 Code", value: (r) => (adpHours3(r.item) ? r.item.code : null), text: true },
  { header: "Hours 3 Amount", value: (r) => (adpHours3(r.item) ? hoursOf(r.item.minutes) : null) },
  { header: "Earnings 3 Code", value: (r) => (isFlat(r.item) ? r.item.code : null), text: true },
  { header: "Earnings 3 Amount", value: (r) => (isFlat(r.item) ? amountText(r.item.cents) : null) },
  { header: "Temp Rate", value: (r) => (isFlat(r.item) ? null : r.item.rate) },
  { header: "FLSA Workweek", value: (r) => r.item.workweek },
];

const adpHours3 = (item: Item) => !isFlat(item) && item.kind !== "REGULAR" && item.kind !== "OVERTIME";

/** A file written piece by piece: its head, each staff member's part (with their id at the provider), its tail. */
export interface FileWriter {
  head: string;
  employee: (employee: FileEmployee, providerId: string) => string;
  tail: () => string;
}

/** What a file names of its payroll besides the staff members. */
export type FileHead = Omit<FilePayroll, "employees">;

function adpWfnWriter(_payroll: FileHead, settings: FileSettings): FileWriter {
  return {
    head: csvHeader(ADP_COLUMNS),
    employee: (employee, fileNumber) =>
      itemsOf(employee, settings.earningCodes, (i) => `${i.workweek}|${i.kind}|${i.code}|${i.rate}`)
        .map((item) => csvRecord(ADP_COLUMNS, { item, fileNumber, settings }))
        .join(""),
    tail: () => "",
  };
}

/**
 * Gusto, in the shape of its Time Tracking API: a time sheet per staff member and shift, its hours classified by
 * pay classification (Regular, Overtime, Double overtime: the earning codes), and the lines that are not hours
 * worked (time off, premiums, reporting-time and call-in pay, penalties) as earnings of their own with their amounts.
 */
function gustoWriter(payroll: FileHead, settings: FileSettings): FileWriter {
  // Lines that are not hours worked are few (time off, premiums): kept until every time sheet is written.
  const otherEarnings: unknown[] = [];
  let sheets = 0;
  const employee = (employee: FileEmployee, uuid: string) => {
    const items = itemsOf(employee, settings.earningCodes, (i) => `${i.shiftId ?? `-${i.date}`}|${i.kind}|${i.code}|${i.rate}`);
    const shifts = new Map<string, { date: string; entries: unknown[] }>();
    for (const item of items) {
      if (item.shiftId === null || !WORKED_KINDS.has(item.kind)) {
        otherEarnings.push({
          employee_uuid: uuid,
          date: item.date,
          earning_type: item.code,
          hours: hoursOf(item.minutes),
          amount: amountText(item.cents),
        });
        continue;
      }
      const sheet = shifts.get(item.shiftId) ?? { date: item.date, entries: [] };
      sheet.entries.push({ pay_classification: item.code, hours_worked: hoursOf(item.minutes), amount: amountText(item.cents) });
      shifts.set(item.shiftId, sheet);
    }
    let text = "";
    for (const [shiftId, sheet] of shifts) {
      const timeSheet = {
        entity_type: "Employee",
        entity_uuid: uuid,
        external_id: shiftId,
        shift_date: sheet.date,
        entries: sheet.entries,
      };
      text += (sheets++ === 0 ? "" : ",") + JSON.stringify(timeSheet);
    }
    return text;
  };
  return {
    head: `{"pay_period":${JSON.stringify({ start_date: payroll.startDate, end_date: payroll.endDate })},"time_sheets":[`,
    employee,
    tail: () => `],"other_earnings":${JSON.stringify(otherEarnings)}}`,
  };
}

/**
 * Check: a payroll item per staff member (its `employee` Check's id) with `earnings` of Check's types, one per type,
 * workweek and rate: `amount` a decimal string, `hours` for hourly types, `description` the rate.
 */
function checkWriter(payroll: FileHead, settings: FileSettings): FileWriter {
  let count = 0;
  const item = (employee: FileEmployee, checkId: string) => ({
    employee: checkId,
    earnings: itemsOf(employee, settings.earningCodes, (i) => `${i.workweek}|${i.code}|${i.rate}`).map((item) => ({
      type: item.code,
      amount: amountText(item.cents),
      ...(isFlat(item) ? {} : { hours: hoursOf(item.minutes) }),
      description: isFlat(item) ? item.kind : `${item.kind} at ${item.rate}`,
      metadata: { workweek: item.workweek },
    })),
  });
  return {
    head: `{"period_start":${JSON.stringify(payroll.startDate)},"period_end":${JSON.stringify(payroll.endDate)},"payroll_items":[`,
    employee: (employee, checkId) => (count++ === 0 ? "" : ",") + JSON.stringify(item(employee, checkId)),
    tail: () => "]}",
  };
}

/**
 * Paychex Flex: a check per worker with its pay components, one per line date, component and rate: `hours`,
 * `payRate`, `lineDate`, `jobId` (null: Shiftline's roles are not Paychex jobs) and `amount`.
 */
function paychexWriter(payroll: FileHead, settings: FileSettings): FileWriter {
  let count = 0;
  const check = (employee: FileEmployee, workerId: string) => ({
    workerId,
    earnings: itemsOf(employee, settings.earningCodes, (i) => `${i.date}|${i.code}|${i.rate}`).map((item) => ({
      componentId: item.code,
      hours: isFlat(item) ? null : hoursOf(item.minutes),
      payRate: isFlat(item) ? null : item.rate,
      amount: amountText(item.cents),
      lineDate: item.date,
      jobId: null,
    })),
  });
  return {
    head: `{"payPeriod":${JSON.stringify({ startDate: payroll.startDate, endDate: payroll.endDate })},"checks":[`,
    employee: (employee, workerId) => (count++ === 0 ? "" : ",") + JSON.stringify(check(employee, workerId)),
    tail: () => "]}",
  };
}

export const PROVIDER_FILES: Record<
  PayrollProvider,
  { writer: (payroll: FileHead, settings: FileSettings) => FileWriter; contentType: string; extension: "csv" | "json" }
> = {
  ADP_WFN: { writer: adpWfnWriter, contentType: "text/csv; charset=utf-8; header=present", extension: "csv" },
  GUSTO: { writer: gustoWriter, contentType: "application/json; charset=utf-8", extension: "json" },
  CHECK: { writer: checkWriter, contentType: "application/json; charset=utf-8", extension: "json" },
  PAYCHEX: { writer: paychexWriter, contentType: "application/json; charset=utf-8", extension: "json" },
};

/** A whole file at once: what the streamed pieces of GET …/payroll?format= add up to. */
export function buildFile(provider: PayrollProvider, payroll: FilePayroll, ids: ReadonlyMap<string, PayrollIds>, settings: FileSettings) {
  const writer = PROVIDER_FILES[provider].writer(payroll, settings);
  let text = writer.head;
  for (const employee of payroll.employees) text += writer.employee(employee, ids.get(employee.employeeId)![provider]!);
  return text + writer.tail();
}
