// Plain-text tables for the terminal (and for pasting into notes as they are).

const fixed = (value, digits) => (Number.isFinite(value) ? value.toFixed(digits) : "-");
export const ms = (value) => fixed(value, 2);
export const perSecond = (value) => fixed(value, 0);
export const ratio = (ours, baseline) => (Number.isFinite(ours / baseline) ? `${(ours / baseline).toFixed(2)}x` : "-");

/** Renders rows (arrays of strings) under a header, columns padded; numeric-looking cells right-aligned. */
export function table(header, rows) {
  const widths = header.map((h, i) => Math.max(h.length, ...rows.map((r) => String(r[i] ?? "").length)));
  const numeric = (cell) => /^(-|\?|-?[\d.,]+x?)$/.test(cell);
  const line = (cells) =>
    cells
      .map((cell, i) => {
        const text = String(cell ?? "");
        return numeric(text) ? text.padStart(widths[i]) : text.padEnd(widths[i]);
      })
      .join("  ")
      .trimEnd();
  return [line(header), widths.map((w) => "-".repeat(w)).join("  "), ...rows.map(line)].join("\n");
}

/** Non-2xx statuses of a measurement, e.g. "409×3", or "" when every response was 2xx. */
export function refusals(statuses) {
  return Object.entries(statuses)
    .filter(([status]) => !status.startsWith("2"))
    .map(([status, count]) => `${status}×${count}`)
    .join(" ");
}

/**
 * The comparison table every scenario prints: one row per operation with our and the baseline's p50, p99 and req/s,
 * and the ratios ours/baseline (latency ratios above 1 and throughput ratios below 1 mean we are slower).
 */
export function comparisonTable(operations) {
  const header = ["operation", "server", "requests", "non-2xx", "p50 ms", "p99 ms", "req/s"];
  const rows = [];
  const none = { count: 0, statuses: {}, p50: NaN, p99: NaN, rps: 0 };
  for (const { label, ours = none, baseline = none } of operations) {
    rows.push([label, "ours", String(ours.count), refusals(ours.statuses) || "0", ms(ours.p50), ms(ours.p99), perSecond(ours.rps)]);
    rows.push([
      "",
      "baseline",
      String(baseline.count),
      refusals(baseline.statuses) || "0",
      ms(baseline.p50),
      ms(baseline.p99),
      perSecond(baseline.rps),
    ]);
    rows.push(["", "ours/baseline", "", "", ratio(ours.p50, baseline.p50), ratio(ours.p99, baseline.p99), ratio(ours.rps, baseline.rps)]);
  }
  return table(header, rows);
}

/**
 * The time-tracking scenario's table with a third Worker (issue 36): ours, the hono-only Worker and the baseline for
 * each operation, then ours/hono-only (our pipeline), ours/baseline, and hono-only/baseline (the framework).
 */
export function comparisonTableOfThree(operations, names = ["ours", "hono-only", "baseline"]) {
  const header = ["operation", "server", "requests", "non-2xx", "p50 ms", "p99 ms", "req/s"];
  const rows = [];
  const none = { count: 0, statuses: {}, p50: NaN, p99: NaN, rps: 0 };
  for (const { label, results } of operations) {
    const [o = none, m = none, b = none] = results;
    results.forEach((r = none, i) => {
      rows.push([i === 0 ? label : "", names[i], String(r.count), refusals(r.statuses) || "0", ms(r.p50), ms(r.p99), perSecond(r.rps)]);
    });
    for (const [name, x, y] of [
      [`${names[0]}/${names[1]}`, o, m],
      [`${names[0]}/${names[2]}`, o, b],
      [`${names[1]}/${names[2]}`, m, b],
    ]) {
      rows.push(["", name, "", "", ratio(x.p50, y.p50), ratio(x.p99, y.p99), ratio(x.rps, y.rps)]);
    }
  }
  return table(header, rows);
}
