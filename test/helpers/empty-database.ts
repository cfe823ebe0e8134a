import { tableNames } from "./db-snapshot";

/**
 * Deletes every row of every application table in one batch (one transaction, foreign keys checked at its end), so
 * a test file sharing the runtime with the files before it starts from the state its migrations leave.
 */
export async function emptyDatabase(db: D1Database): Promise<void> {
  const names = await tableNames(db);
  const counts = await db.batch<{ n: number }>(names.map((name) => db.prepare(`SELECT count(*) AS n FROM "${name}"`)));
  // The audit log last: its entries may be deleted only once their organization is gone (a trigger keeps them).
  const filled = names
    .filter((_, i) => (counts[i]?.results[0]?.n ?? 0) > 0)
    .sort((a, b) => Number(a === "audit_log") - Number(b === "audit_log"));
  if (filled.length === 0) return;
  await db.batch([db.prepare("PRAGMA defer_foreign_keys = ON"), ...filled.map((name) => db.prepare(`DELETE FROM "${name}"`))]);
}
