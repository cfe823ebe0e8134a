import { describe, expect, it } from "vitest";
import {
  defaultPayPeriodSettings,
  isPayPeriodId,
  type PayPeriodSettings,
  payPeriodContaining,
  payPeriodSettingsProblems,
  payPeriodsOverlapping,
} from "@/domain/pay-periods";

const span = (startDate: string, endDate: string) => ({ id: startDate, startDate, endDate });

describe("payPeriodContaining", () => {
  it.each<[PayPeriodSettings, string, ReturnType<typeof span>]>([
    [{ frequency: "WEEKLY", anchorDate: "2026-06-01" }, "2026-06-07", span("2026-06-01", "2026-06-07")],
    [{ frequency: "WEEKLY", anchorDate: "2026-06-01" }, "2026-05-31", span("2026-05-25", "2026-05-31")],
    [{ frequency: "WEEKLY", anchorDate: "2026-06-03" }, "2026-06-01", span("2026-05-27", "2026-06-02")],
    [{ frequency: "BIWEEKLY", anchorDate: "2026-06-01" }, "2026-06-14", span("2026-06-01", "2026-06-14")],
    [{ frequency: "BIWEEKLY", anchorDate: "2026-06-01" }, "2026-06-15", span("2026-06-15", "2026-06-28")],
    [{ frequency: "BIWEEKLY", anchorDate: "2026-06-01" }, "2026-05-31", span("2026-05-18", "2026-05-31")],
    [{ frequency: "SEMIMONTHLY", anchorDate: "2026-01-01" }, "2026-02-20", span("2026-02-16", "2026-02-28")],
    [{ frequency: "SEMIMONTHLY", anchorDate: "2026-01-01" }, "2026-03-15", span("2026-03-01", "2026-03-15")],
    [{ frequency: "SEMIMONTHLY", anchorDate: "2026-01-16" }, "2026-12-31", span("2026-12-16", "2026-12-31")],
    [{ frequency: "SEMIMONTHLY", anchorDate: "2026-01-15" }, "2026-02-27", span("2026-02-15", "2026-02-27")],
    [{ frequency: "SEMIMONTHLY", anchorDate: "2026-01-15" }, "2026-03-01", span("2026-02-28", "2026-03-14")],
    [{ frequency: "MONTHLY", anchorDate: "2026-01-01" }, "2026-02-28", span("2026-02-01", "2026-02-28")],
    [{ frequency: "MONTHLY", anchorDate: "2026-01-10" }, "2026-01-05", span("2025-12-10", "2026-01-09")],
    [{ frequency: "MONTHLY", anchorDate: "2026-01-31" }, "2026-03-01", span("2026-02-28", "2026-03-30")],
    [{ frequency: "MONTHLY", anchorDate: "2026-01-31" }, "2028-02-29", span("2028-02-29", "2028-03-30")],
  ])("%j holds %s in %j", (settings, date, expected) => {
    expect(payPeriodContaining(settings, date)).toEqual(expected);
  });
});

describe("payPeriodsOverlapping", () => {
  it("lists every period touching the range, in order, without gaps", () => {
    const periods = payPeriodsOverlapping({ frequency: "SEMIMONTHLY", anchorDate: "2026-01-01" }, "2026-01-10", "2026-03-01");
    expect(periods.map((p) => `${p.startDate}..${p.endDate}`)).toEqual([
      "2026-01-01..2026-01-15",
      "2026-01-16..2026-01-31",
      "2026-02-01..2026-02-15",
      "2026-02-16..2026-02-28",
      "2026-03-01..2026-03-15",
    ]);
  });

  it("a start after the end gives none", () => {
    expect(payPeriodsOverlapping({ frequency: "WEEKLY", anchorDate: "2026-06-01" }, "2026-06-05", "2026-06-03")).toEqual([]);
  });

  it("one day inside one period gives that period", () => {
    expect(payPeriodsOverlapping({ frequency: "WEEKLY", anchorDate: "2026-06-01" }, "2026-06-03", "2026-06-03")).toEqual([
      span("2026-06-01", "2026-06-07"),
    ]);
  });
});

describe("period ids and settings", () => {
  const biweekly: PayPeriodSettings = { frequency: "BIWEEKLY", anchorDate: "2026-06-01" };

  it("an id is a period's start date", () => {
    expect(isPayPeriodId(biweekly, "2026-06-15")).toBe(true);
    expect(isPayPeriodId(biweekly, "2026-06-08")).toBe(false);
    expect(isPayPeriodId(biweekly, "2026-02-30")).toBe(false);
    expect(isPayPeriodId(biweekly, "latest")).toBe(false);
  });

  it("a date whose period would start before the supported calendar is no id (not an error)", () => {
    expect(isPayPeriodId(biweekly, "1970-01-01")).toBe(false);
    expect(isPayPeriodId({ frequency: "WEEKLY", anchorDate: "2026-06-01" }, "1970-01-01")).toBe(false);
  });

  it("defaults to weekly from the Monday of the creation week", () => {
    expect(defaultPayPeriodSettings("2026-06-04")).toEqual({ frequency: "WEEKLY", anchorDate: "2026-06-01" });
    expect(defaultPayPeriodSettings("2026-06-01")).toEqual({ frequency: "WEEKLY", anchorDate: "2026-06-01" });
  });

  it("refuses unknown frequencies, impossible anchors, and a semimonthly anchor on the 31st", () => {
    expect(payPeriodSettingsProblems({ frequency: "MONTHLY", anchorDate: "2026-01-31" })).toEqual([]);
    expect(payPeriodSettingsProblems({ frequency: "DAILY", anchorDate: "2026-02-30" }).map((p) => p.path)).toEqual([
      "frequency",
      "anchorDate",
    ]);
    expect(payPeriodSettingsProblems({ frequency: "SEMIMONTHLY", anchorDate: "2026-01-31" }).map((p) => p.path)).toEqual(["anchorDate"]);
  });
});
