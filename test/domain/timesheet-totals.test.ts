import { describe, expect, it } from "vitest";
import { amountCents, centsToAmount, hoursDecimal, reportDay } from "@/domain/timesheet-totals";

describe("amounts", () => {
  it("is payable hours × wage rounded to the cent", () => {
    expect(amountCents(450, 18.5)).toBe(13875);
    expect(amountCents(20, 10)).toBe(333);
    expect(amountCents(1, 0.3)).toBe(1);
    expect(amountCents(0, 25)).toBe(0);
    expect(centsToAmount(13875)).toBe(138.75);
  });

  it("adds per-shift cents, so parts always sum to the whole", () => {
    const shifts = [amountCents(20, 10), amountCents(20, 10), amountCents(20, 10)];
    expect(shifts.reduce((a, b) => a + b, 0)).toBe(999);
  });
});

describe("hoursDecimal", () => {
  it("writes payable hours as a short decimal string", () => {
    expect(hoursDecimal(450)).toBe("7.5");
    expect(hoursDecimal(480)).toBe("8");
    expect(hoursDecimal(20)).toBe("0.33");
    expect(hoursDecimal(0)).toBe("0");
  });
});

describe("reportDay", () => {
  it("is the business date, or the start's date at the report's offset", () => {
    const start = new Date("2026-03-14T03:00:00Z");
    expect(reportDay(start, "2026-03-13")).toBe("2026-03-13");
    expect(reportDay(start, "2026-03-13", 0)).toBe("2026-03-14");
    expect(reportDay(start, "2026-03-13", -300)).toBe("2026-03-13");
  });
});
