import { env } from "cloudflare:test";

/** Every application table, from sqlite_master, so a table added later is watched without a change here. */
export async function tableNames(): Promise<string[]> {
  const { results } = await env.DB.prepare(
    "SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite_%' AND name NOT LIKE '_cf_%' AND name != 'd1_migrations' ORDER BY name",
  ).all<{ name: string }>();
  return results.map((r) => r.name);
}

export type Snapshot = Map<string, { count: number; rows: string }>;

/** Each table's row count and its rows, serialised in rowid order. */
export async function snapshot(): Promise<Snapshot> {
  const names = await tableNames();
  const results = await env.DB.batch(names.map((name) => env.DB.prepare(`SELECT * FROM "${name}" ORDER BY rowid`)));
  return new Map(names.map((name, i) => [name, { count: results[i]!.results.length, rows: JSON.stringify(results[i]!.results) }]));
}

/** The tables whose rows differ, e.g. `shifts: 3 -> 4 rows` or `locations: rows changed`. */
export function changes(before: Snapshot, after: Snapshot): string[] {
  const names = new Set([...before.keys(), ...after.keys()]);
  return [...names].flatMap((name) => {
    const [a, b] = [before.get(name), after.get(name)];
    if (a?.count !== b?.count) return [`${name}: ${a?.count ?? "no table"} -> ${b?.count ?? "no table"} rows`];
    return a?.rows === b?.rows ? [] : [`${name}: rows changed`];
  });
}
