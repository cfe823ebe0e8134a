import { describe, expect, it } from "vitest";
import { startPayTotalsSum, sumPayTotals } from "@/domain/pay-lines";

const item = (grossPay: number, penaltyHours: number) => ({
  regularMinutes: 480,
  overtimeMinutes: 30,
  doubleTimeMinutes: 0,
  penaltyHours,
  timeOffHours: 0.1,
  grossPay,
});

describe("startPayTotalsSum carried through JSON", () => {
  it("sums as sumPayTotals does when its state is taken up again between items", () => {
    const items = [item(160.1, 0.1), item(0.2, 0.2), item(333.33, 0.3), item(19.99, 0)];
    let sum = startPayTotalsSum();
    for (const i of items) {
      sum.add(i);
      sum = startPayTotalsSum(JSON.parse(JSON.stringify(sum.state())));
    }
    // 160.10 + 0.20 + 333.33 + 19.99 = 513.62; 4 × 480 = 1,920 min; 4 × 30 = 120 min; 0.1 + 0.2 + 0.3 = 0.6 h; 0.4 h.
    expect(sum.total()).toEqual({
      regularMinutes: 1920,
      overtimeMinutes: 120,
      doubleTimeMinutes: 0,
      penaltyHours: 0.6,
      timeOffHours: 0.4,
      grossPay: 513.62,
    });
    expect(sum.count()).toBe(4);
    expect(sum.total()).toEqual(sumPayTotals(items));
  });
});
