// Bounded load with autocannon: fixed connections, fixed duration, one request list per connection.
import autocannon from "autocannon";

export const MAX_CONNECTIONS = 16;

/**
 * Drives `url` with `connections` keep-alive connections for `durationSeconds`. Each connection sends, in a loop,
 * the request list `requestsFor(connectionIndex)` answers (autocannon request objects; give each a `label`).
 * Latencies are collected per label with sub-millisecond precision from autocannon's response events (its own
 * histogram rounds to whole milliseconds). Answers per label: count, statuses, p50/p99/mean ms, req/s.
 */
export async function measure({ url, connections, durationSeconds, requestsFor, timeoutSeconds = 10 }) {
  if (!/^http:\/\/127\.0\.0\.1:\d+$/.test(url)) throw new Error(`bench targets 127.0.0.1 only, not ${url}`);
  if (connections < 1 || connections > MAX_CONNECTIONS) throw new Error(`connections must be 1..${MAX_CONNECTIONS}`);
  let next = 0;
  const samples = new Map();
  const sample = (label) => {
    let s = samples.get(label);
    if (!s) samples.set(label, (s = { latencies: [], statuses: {} }));
    return s;
  };

  const started = process.hrtime.bigint();
  const instance = autocannon({
    url,
    connections,
    pipelining: 1,
    duration: durationSeconds,
    timeout: timeoutSeconds,
    // Every connection gets its own request list (its own staff member, token and path): see requestsFor.
    setupClient: (client) => client.setRequests(requestsFor(next++ % connections)),
  });
  instance.on("response", (client, statusCode, _bytes, responseTime) => {
    const label = client.requestIterator?.currentRequest?.label ?? "all";
    const s = sample(label);
    s.latencies.push(responseTime);
    s.statuses[statusCode] = (s.statuses[statusCode] ?? 0) + 1;
  });
  const result = await instance;
  const elapsedSeconds = Number(process.hrtime.bigint() - started) / 1e9;

  const byLabel = {};
  for (const [label, s] of samples) {
    const sorted = s.latencies.sort((a, b) => a - b);
    const ok = Object.entries(s.statuses)
      .filter(([status]) => status.startsWith("2"))
      .reduce((n, [, count]) => n + count, 0);
    byLabel[label] = {
      count: sorted.length,
      ok,
      statuses: s.statuses,
      p50: percentile(sorted, 0.5),
      p99: percentile(sorted, 0.99),
      mean: sorted.reduce((a, b) => a + b, 0) / (sorted.length || 1),
      rps: sorted.length / (result.duration || elapsedSeconds),
    };
  }
  return { byLabel, errors: result.errors, timeouts: result.timeouts, durationSeconds: result.duration };
}

/** Nearest-rank percentile of an ascending array. */
export function percentile(sorted, q) {
  if (sorted.length === 0) return NaN;
  return sorted[Math.min(sorted.length - 1, Math.max(0, Math.ceil(q * sorted.length) - 1))];
}
