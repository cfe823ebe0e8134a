/**
 * computePay on its own, no Worker and no D1: 5,000 shifts (500 staff × 10 weekdays over two weeks, 9–11 h with a
 * 30-minute unpaid lunch) under the CALIFORNIA preset, as the pay scenario seeds them. Prints the median and the
 * worst of several runs and the time per 1,000 shifts; nothing is asserted (a timing is a figure, not a test).
 *
 *   npx tsx bench/pay-classification.ts [runs]
 */
import { addDays } from "@/domain/local-time";
import { computePay, type PayShift } from "@/domain/pay-classification";
import { payShift, ruleSet, unpaidBreak } from "../test/helpers/pay-fixtures";

const shifts: PayShift[] = [];
for (let e = 0; e < 500; e++) {
  for (let d = 0; d < 10; d++) {
    const date = addDays("2026-06-01", d < 5 ? d : d + 2);
    shifts.push(
      payShift(date, "08:00", 540 + (e % 5) * 30, {
        id: `shf_${e}_${d}`,
        employeeId: `emp_${String(e).padStart(3, "0")}`,
        breaks: [unpaidBreak(date, "12:00", 30)],
      }),
    );
  }
}
const input = { startDate: "2026-06-01", endDate: "2026-06-14", shifts, timeOff: [], ruleSets: [ruleSet("prs_ca", "CALIFORNIA")] };

const runs = Number(process.argv[2] ?? 15);
const timings: number[] = [];
let employees = 0;
for (let i = 0; i < runs + 2; i++) {
  const started = performance.now();
  employees = computePay(input).employees.length;
  if (i >= 2) timings.push(performance.now() - started); // the first two warm the JIT
}
timings.sort((a, b) => a - b);
const median = timings[Math.floor(timings.length / 2)]!;
console.log(
  `computePay: ${shifts.length} shifts, ${employees} employees, ${runs} runs: median ${median.toFixed(1)} ms, ` +
    `worst ${timings.at(-1)!.toFixed(1)} ms, ${((median / shifts.length) * 1000).toFixed(2)} ms per 1,000 shifts`,
);
