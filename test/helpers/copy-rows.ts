/**
 * Seeding many rows at once for scale tests: INSERT … SELECT copying row `id` of `table` `copies` times, each column
 * its own value unless `overrides` gives SQL for it (over the copy number `n.i`, see `copyId`).
 */
export async function copyRows(db: D1Database, table: string, id: string, copies: number, overrides: Record<string, string>) {
  const { results } = await db.prepare(`PRAGMA table_info(${table})`).all<{ name: string }>();
  const columns = results.map((c) => c.name);
  const values = columns.map((c) => overrides[c] ?? `t.${c}`);
  await db
    .prepare(
      `INSERT INTO ${table} (${columns.join(", ")})
       WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n WHERE i < ${copies})
       SELECT ${values.join(", ")} FROM n, ${table} AS t WHERE t.id = '${id}'`,
    )
    .run();
}

/** SQL for a uuid of the same version as `id`, its last group the copy number `n.i` (for `copyRows`' overrides). */
export const copyId = (id: string) => `'${id.slice(0, 24)}' || printf('%012d', n.i)`;
