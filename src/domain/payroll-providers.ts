/*
 * Payroll providers: who they are, the ids they key a staff member by, and each one's default earning codes. All four
 * are US providers paying in US dollars: their files write amounts to 2 decimals (payroll-files.ts), whatever the
 * organization's currency; an organization in another currency takes the JSON or CSV payroll.
 */

export const PAYROLL_PROVIDERS = ["ADP_WFN", "GUSTO", "CHECK", "PAYCHEX"] as const;
export type PayrollProvider = (typeof PAYROLL_PROVIDERS)[number];

/** The `format` of GET …/payroll for each provider. */
export const PROVIDER_FORMATS = { "adp-wfn": "ADP_WFN", gusto: "GUSTO", check: "CHECK", paychex: "PAYCHEX" } as const;
export type ProviderFormat = keyof typeof PROVIDER_FORMATS;

export type PayrollIds = Partial<Record<PayrollProvider, string>>;

/**
 * The keys an earning code is mapped under: a line kind (`REGULAR`), a kind and the rule that made it
 * (`OVERTIME:DAILY_OVERTIME`), or time off by its policy type (`TIME_OFF:Sick`).
 */
export const EARNING_KEY =
  /^(REGULAR|OVERTIME|DOUBLE_TIME|MEAL_PENALTY|PREDICTABILITY|REST|TIME_OFF|HOLIDAY|PENALTY|MINIMUM_ENGAGEMENT|SPREAD_OF_HOURS|SPLIT_SHIFT|REPORTING_TIME|CALL_IN)(:[A-Za-z0-9_.]{1,80})?$/;

/**
 * Each provider's defaults, written where `PUT …/payroll-settings` names a provider without earning codes. Only what
 * the provider itself names is filled in; a kind its documentation gives no standard code for (a meal premium, a
 * Fair Workweek premium at most providers) is left for the organization to map, never guessed.
 *  - ADP_WFN: Reg Hours and O/T Hours are columns of the Paydata file; other hours go in Hours 3 Code, whose codes
 *    each company sets up in ADP: those are the organization's to map (REGULAR and OVERTIME go to their columns).
 *  - GUSTO: the pay classifications of its Time Tracking API: Regular, Overtime, Double overtime.
 *  - CHECK: earning `type`s of Check's API (docs.checkhq.com "Types of earnings").
 *  - PAYCHEX: pay component names as Paychex Flex sets them up by default; each client's may differ.
 */
export const DEFAULT_EARNING_CODES: Record<PayrollProvider, Record<string, string>> = {
  ADP_WFN: { REGULAR: "REG", OVERTIME: "OT" },
  GUSTO: { REGULAR: "Regular", OVERTIME: "Overtime", DOUBLE_TIME: "Double overtime" },
  CHECK: {
    REGULAR: "hourly",
    OVERTIME: "overtime",
    DOUBLE_TIME: "double_overtime",
    TIME_OFF: "pto",
    "TIME_OFF:Vacation": "pto",
    "TIME_OFF:Sick": "sick",
    HOLIDAY: "paid_holiday",
  },
  PAYCHEX: {
    REGULAR: "Hourly",
    OVERTIME: "Overtime",
    DOUBLE_TIME: "Double Time",
    TIME_OFF: "PTO",
    "TIME_OFF:Sick": "Sick",
    HOLIDAY: "Holiday",
  },
};

/** A line as its earning code is looked up. */
export interface CodedLine {
  kind: string;
  rule: string | null;
  policyType?: string;
}

/** The keys a line's code is looked up under, most specific first. */
export function earningKeysOf(line: CodedLine): string[] {
  const specific = line.kind === "TIME_OFF" ? line.policyType : line.rule;
  return specific ? [`${line.kind}:${specific}`, line.kind] : [line.kind];
}

/** A line's earning code under `codes`, or null when none of its keys is mapped. */
export function earningCodeOf(codes: Readonly<Record<string, string>>, line: CodedLine): string | null {
  for (const key of earningKeysOf(line)) if (codes[key] !== undefined) return codes[key]!;
  return null;
}
