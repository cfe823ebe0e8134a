// The scenarios' half of bench/baseline/recording.js: our traced requests as a recording, sent to the Workers that
// replay our SQL (the baseline, the hono-only Worker) and loaded into the scenario's own copy of the statements.
import { loadRecording } from "../baseline/recording.js";
import { withoutEventInserts } from "./event-trips.mjs";

/** A traced request's statements per round trip on its organization's shard, the outbox's (events, wake read) aside. */
export const recordedTrips = (res) => withoutEventInserts(allTrips(res));

/** The same with the outbox's statements kept: for a baseline that writes the event as ours does (publish, demand). */
const allTrips = (res) => res.roundTrips.filter((t) => t.kind !== "directory").map((t) => t.statements);

/**
 * `traces`: {[operation]: a traced request of ours}. Loads their statements here and in each of `servers`; throws
 * when the baseline's statements modules cannot take them (ours changed shape: the message says where). The
 * operations named in `withOutbox` keep their event INSERTs and wake read: their baselines send them too.
 */
export async function shareRecording(traces, servers, { withOutbox = [] } = {}) {
  const recording = Object.fromEntries(
    Object.entries(traces).map(([op, res]) => [op, withOutbox.includes(op) ? allTrips(res) : recordedTrips(res)]),
  );
  loadRecording(recording);
  for (const server of servers) {
    const res = await server.request("POST", "/__bench/statements", { body: recording });
    if (res.status !== 200) throw new Error(`${server.name} could not take our statements: ${res.text.slice(0, 500)}`);
  }
  return recording;
}
