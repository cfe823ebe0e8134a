import { env } from "cloudflare:test";
import { shardBinding } from "@/data/shards";
import { shardNames } from "./shards";

/** Every application table, from sqlite_master, so a table added later is watched without a change here. */
export async function tableNames(db: D1Database = env.DB): Promise<string[]> {
  const { results } = await db
    .prepare(
      "SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite_%' AND name NOT LIKE '_cf_%' AND name != 'd1_migrations' ORDER BY name",
    )
    .all<{ name: string }>();
  return results.map((r) => r.name);
}

export type Snapshot = Map<string, { count: number; rows: string }>;

/**
 * Columns any request may move without changing a record: a kiosk device's lastSeenAt (set by its requests, at most
 * once a minute, whatever they answer). Left out of the rows compared.
 */
const VOLATILE_COLUMNS: Record<string, readonly string[]> = { devices: ["last_seen_at"] };

const withoutVolatile = (name: string, rows: Record<string, unknown>[]) => {
  const volatile = VOLATILE_COLUMNS[name];
  if (!volatile) return rows;
  return rows.map((row) => Object.fromEntries(Object.entries(row).filter(([column]) => !volatile.includes(column))));
};

/** Each table's row count and its rows, serialised in rowid order, on every shard (keys `<shard>.<table>`). */
export async function snapshot(): Promise<Snapshot> {
  const snapshot: Snapshot = new Map();
  for (const shard of shardNames()) {
    const db = shardBinding(env, shard);
    const names = await tableNames(db);
    const results = await db.batch(names.map((name) => db.prepare(`SELECT * FROM "${name}" ORDER BY rowid`)));
    names.forEach((name, i) =>
      snapshot.set(`${shard}.${name}`, {
        count: results[i]!.results.length,
        rows: JSON.stringify(withoutVolatile(name, results[i]!.results as Record<string, unknown>[])),
      }),
    );
  }
  return snapshot;
}

/** The tables whose rows differ, e.g. `DB_SHARD_2.shifts: 3 -> 4 rows` or `DB_SHARD_2.locations: rows changed`. */
export function changes(before: Snapshot, after: Snapshot): string[] {
  const names = new Set([...before.keys(), ...after.keys()]);
  return [...names].flatMap((name) => {
    const [a, b] = [before.get(name), after.get(name)];
    if (a?.count !== b?.count) return [`${name}: ${a?.count ?? "no table"} -> ${b?.count ?? "no table"} rows`];
    return a?.rows === b?.rows ? [] : [`${name}: rows changed`];
  });
}
