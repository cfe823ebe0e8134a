import { describe, expect, it } from "vitest";
import {
  amountDecimals,
  amountText,
  amountUnits,
  hoursDecimal,
  reportDay,
  shiftAmount,
  sumsToAmount,
  unitsToAmount,
} from "@/domain/timesheet-totals";

describe("amounts", () => {
  it("is payable hours × wage rounded to the cent", () => {
    expect(amountUnits(450, 18.5)).toBe(13875);
    expect(amountUnits(20, 10)).toBe(333);
    expect(amountUnits(1, 0.3)).toBe(1);
    expect(amountUnits(0, 25)).toBe(0);
    expect(unitsToAmount(13875)).toBe(138.75);
  });

  it("adds per-shift cents, so parts always sum to the whole", () => {
    const shifts = [amountUnits(20, 10), amountUnits(20, 10), amountUnits(20, 10)];
    expect(shifts.reduce((a, b) => a + b, 0)).toBe(999);
  });

  it("rounds half away from zero to the currency's minor units: yen, cents, a dinar's thousandths", () => {
    // 7 h 59 = 479 min. BHD: 479 × 1.234 / 60 = 9.851433… → 9.851. JPY: 479 × 1000 / 60 = 7983.33… → 7983.
    expect(shiftAmount(479, 1.234, 3)).toBe(9.851);
    expect(shiftAmount(479, 1000, 0)).toBe(7983);
    expect(shiftAmount(479, 1.234, 2)).toBe(9.85);
    // Halves: 30 min at ¥1 is ¥0.5 → ¥1; 1 min at 0.03 BHD is 0.0005 → 0.001; 1 min at $0.30 is $0.005 → $0.01.
    expect(shiftAmount(30, 1, 0)).toBe(1);
    expect(shiftAmount(1, 0.03, 3)).toBe(0.001);
    expect(shiftAmount(1, 0.3, 2)).toBe(0.01);
  });

  it("reads ISO 4217 minor units as decimals 0 to 3 (4, CLF's, rounds to 3 as pay does)", () => {
    expect([0, 2, 3, 4].map(amountDecimals)).toEqual([0, 2, 3, 3]);
  });

  it("totals the per-shift amounts at the currency's decimals", () => {
    // Three shifts of 20 min at ¥10 are ¥3.33… each → ¥3 each → ¥9 (not ¥10 from their exact sum).
    const sums = { amountUnits0: 9, amountUnits1: 99, amountUnits2: 999, amountUnits3: 9999 };
    expect(sumsToAmount(sums, 0)).toBe(9);
    expect(sumsToAmount(sums, 2)).toBe(9.99);
    expect(sumsToAmount(sums, 3)).toBe(9.999);
  });

  it("writes an amount with exactly its currency's decimals", () => {
    expect(amountText(9.851, 3)).toBe("9.851");
    expect(amountText(7983, 0)).toBe("7983");
    expect(amountText(138.75, 2)).toBe("138.75");
    expect(amountText(9.85, 3)).toBe("9.850");
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
