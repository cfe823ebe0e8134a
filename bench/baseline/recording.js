// The baseline's SQL is ours, recorded at the start of each run, never copied by hand. A scenario traces our Worker's
// requests (bench/counting-entry.ts), keeps each one's statements per round trip on the organization's shard, the
// outbox's aside (`recordingOf`), and posts them to the baseline (`POST /__bench/statements`). Each *-statements.js
// module names the statements it needs by their position in those round trips, and checks the round trips have the
// shape its handlers bind values for: when ours sends a statement more or less, loading the recording fails and says
// where, instead of the baseline silently sending other SQL. The values stay the baseline's own, computed from the
// request as ours computes them; each scenario still compares both Workers' traces.
//
// Plain JS with no Worker-only imports: the scenarios (Node) load the same recording into their own copy.

const fills = [];
let loaded = null;

/**
 * `fill(recording)` runs when a recording holding every one of `operations` is loaded (and at once if one already
 * is): the statements module assigns its statements there, with `trip` and `statement` below.
 */
export function fromRecording(operations, fill) {
  const entry = { operations, fill };
  fills.push(entry);
  if (loaded) run(entry, loaded);
}

function run({ operations, fill }, recording) {
  if (operations.every((op) => op in recording)) fill(recording);
}

/** Loads a recording, {[operation]: string[][]} (the SQL of each round trip of our traced request), beside any before. */
export function loadRecording(recording) {
  const merged = { ...loaded, ...recording };
  for (const entry of fills) run(entry, merged);
  loaded = merged;
  return Object.keys(merged);
}

/**
 * Round trip `index` of `operation` (its statements), checked to hold `count` statements: the number the baseline's
 * handler binds values for.
 */
export function trip(recording, operation, index, count) {
  const trips = recording[operation];
  const statements = trips?.[index];
  if (!statements)
    throw new Error(`recording: ours sent ${trips?.length ?? 0} round trips for ${operation}, the baseline reads round trip ${index + 1}`);
  if (count !== undefined && statements.length !== count) {
    throw new Error(
      `recording: ours now sends ${statements.length} statements in round trip ${index + 1} of ${operation}, the baseline binds ` +
        `values for ${count}: update its handler (bench/baseline/) to bind what ours binds, and the count here. Ours:\n` +
        statements.map((sql, i) => `  ${i + 1}. ${sql.slice(0, 160)}`).join("\n"),
    );
  }
  return statements;
}

/** Statement `position` of round trip `index` of `operation`, checked to start with `startsWith` (what it writes or reads). */
export function statement(recording, operation, index, position, startsWith) {
  const sql = trip(recording, operation, index)[position];
  if (sql === undefined || (startsWith && !sql.toLowerCase().startsWith(startsWith.toLowerCase()))) {
    throw new Error(
      `recording: statement ${position + 1} of round trip ${index + 1} of ${operation} is not "${startsWith}…": ${sql?.slice(0, 120)}`,
    );
  }
  return sql;
}

/**
 * SQL recorded with one `IN (?, …, ?)` list of `recorded` placeholders, as a function of the list's length: a
 * statement whose list follows the request's ids (chunks of at most 90 ids).
 */
export function withInList(sql, recorded) {
  const list = Array(recorded).fill("?").join(", ");
  const at = sql.indexOf(`(${list})`);
  if (at < 0 || sql.indexOf(`(${list})`, at + 1) >= 0)
    throw new Error(`recording: no single IN list of ${recorded} in ${sql.slice(0, 120)}…`);
  return (n) => `${sql.slice(0, at)}(${Array(n).fill("?").join(", ")})${sql.slice(at + list.length + 2)}`;
}

/** The bench endpoint of the baseline and the hono-only Worker: POST /__bench/statements {recording}. */
export async function recordingEndpoint(request) {
  if (request.method !== "POST" || new URL(request.url).pathname !== "/__bench/statements") return null;
  try {
    return Response.json({ operations: loadRecording(await request.json()) });
  } catch (error) {
    return Response.json({ error: String(error.message ?? error) }, { status: 409 });
  }
}
