import { type CsvColumn, csvHeader, csvRecord } from "./csv";
import { centsToAmount } from "./pay-amounts";
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
  const payrollIds = new Set<string>();
  const earningCodes = new Set<string>();
  for (const employee of payroll.employees) {
    if (!ids.get(employee.employeeId)?.[provider]) payrollIds.add(employee.employeeId);
    for (const line of employee.lines) {
      if (earningCodeOf(settings.earningCodes, line) === null) {
        earningCodes.add(line.kind === "TIME_OFF" && line.policyType ? `TIME_OFF:${line.policyType}` : line.kind);
      }
    }
  }
  return { payrollIds: [...payrollIds].sort(), earningCodes: [...earningCodes].sort() };
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
    item.cents += Math.round((line.amount ?? 0) * 100);
    items.set(key, item);
  }
  return [...items.values()];
}

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

export function adpWfnFile(payroll: FilePayroll, ids: ReadonlyMap<string, PayrollIds>, settings: FileSettings): string {
  let text = csvHeader(ADP_COLUMNS);
  for (const employee of payroll.employees) {
    const fileNumber = ids.get(employee.employeeId)!.ADP_WFN!;
    for (const item of itemsOf(employee, settings.earningCodes, (i) => `${i.workweek}|${i.kind}|${i.code}|${i.rate}`)) {
      text += csvRecord(ADP_COLUMNS, { item, fileNumber, settings });
    }
  }
  return text;
}

/**
 * Gusto, in the shape of its Time Tracking API: a time sheet per staff member and shift, its hours classified by
 * pay classification (Regular, Overtime, Double overtime: the earning codes), and the lines that are not hours
 * worked (time off, premiums) as earnings of their own with their amounts.
 */
export function gustoFile(payroll: FilePayroll, ids: ReadonlyMap<string, PayrollIds>, settings: FileSettings): string {
  const timeSheets: unknown[] = [];
  const otherEarnings: unknown[] = [];
  for (const employee of payroll.employees) {
    const uuid = ids.get(employee.employeeId)!.GUSTO!;
    const items = itemsOf(employee, settings.earningCodes, (i) => `${i.shiftId ?? `-${i.date}`}|${i.kind}|${i.code}|${i.rate}`);
    const shifts = new Map<string, { date: string; entries: unknown[] }>();
    for (const item of items) {
      if (item.shiftId === null) {
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
    for (const [shiftId, sheet] of shifts) {
      timeSheets.push({
        entity_type: "Employee",
        entity_uuid: uuid,
        external_id: shiftId,
        shift_date: sheet.date,
        entries: sheet.entries,
      });
    }
  }
  return JSON.stringify({
    pay_period: { start_date: payroll.startDate, end_date: payroll.endDate },
    time_sheets: timeSheets,
    other_earnings: otherEarnings,
  });
}

/**
 * Check: a payroll item per staff member (its `employee` Check's id) with `earnings` of Check's types, one per type,
 * workweek and rate: `amount` a decimal string, `hours` for hourly types, `description` the rate.
 */
export function checkFile(payroll: FilePayroll, ids: ReadonlyMap<string, PayrollIds>, settings: FileSettings): string {
  const items = payroll.employees.map((employee) => ({
    employee: ids.get(employee.employeeId)!.CHECK!,
    earnings: itemsOf(employee, settings.earningCodes, (i) => `${i.workweek}|${i.code}|${i.rate}`).map((item) => ({
      type: item.code,
      amount: amountText(item.cents),
      ...(isFlat(item) ? {} : { hours: hoursOf(item.minutes) }),
      description: isFlat(item) ? item.kind : `${item.kind} at ${item.rate}`,
      metadata: { workweek: item.workweek },
    })),
  }));
  return JSON.stringify({ period_start: payroll.startDate, period_end: payroll.endDate, payroll_items: items });
}

/**
 * Paychex Flex: a check per worker with its pay components, one per line date, component and rate: `hours`,
 * `payRate`, `lineDate`, `jobId` (null: Shiftline's roles are not Paychex jobs) and `amount`.
 */
export function paychexFile(payroll: FilePayroll, ids: ReadonlyMap<string, PayrollIds>, settings: FileSettings): string {
  const checks = payroll.employees.map((employee) => ({
    workerId: ids.get(employee.employeeId)!.PAYCHEX!,
    earnings: itemsOf(employee, settings.earningCodes, (i) => `${i.date}|${i.code}|${i.rate}`).map((item) => ({
      componentId: item.code,
      hours: isFlat(item) ? null : hoursOf(item.minutes),
      payRate: isFlat(item) ? null : item.rate,
      amount: amountText(item.cents),
      lineDate: item.date,
      jobId: null,
    })),
  }));
  return JSON.stringify({ payPeriod: { startDate: payroll.startDate, endDate: payroll.endDate }, checks });
}

export const PROVIDER_FILES: Record<PayrollProvider, { build: typeof adpWfnFile; contentType: string; extension: "csv" | "json" }> = {
  ADP_WFN: { build: adpWfnFile, contentType: "text/csv; charset=utf-8; header=present", extension: "csv" },
  GUSTO: { build: gustoFile, contentType: "application/json; charset=utf-8", extension: "json" },
  CHECK: { build: checkFile, contentType: "application/json; charset=utf-8", extension: "json" },
  PAYCHEX: { build: paychexFile, contentType: "application/json; charset=utf-8", extension: "json" },
};
