import { payPeriodSnapshots } from "@db/schema";
import { inArray } from "drizzle-orm";
import { chunk, rowsPerStatement } from "@/data/chunk";
import type { Database } from "@/data/client";
import { deleteFiles } from "@/data/files";

/** Objects under payroll/ this old that no snapshot row names are orphans: a close put them, then its batch failed. */
export const ORPHAN_AGE_MS = 60 * 60 * 1000;
/** D1 statements the sweep may send per invocation, all shards together (the other jobs share the rest). */
export const SWEEP_STATEMENTS = 60;
/** Where the sweep stopped (the last key it examined): the next run starts after it, and from the top once done. */
export const SWEEP_CURSOR_KEY = "sweeps/payroll.cursor";

const PREFIX = "payroll/";
/** A snapshot's row names its JSON object; the CSV beside it belongs to the same row. */
const jsonKeyOf = (key: string) => key.replace(/\.csv$/, ".json");

/**
 * Deletes the payroll objects older than ORPHAN_AGE_MS that no pay_period_snapshots row names on any shard (a shard
 * move copies an organization's rows before it deletes them, so a committed object is named on one shard at least).
 * Younger objects are left alone: their close may still be committing. Walks the bucket in key order from where the
 * previous run stopped, within SWEEP_STATEMENTS; answers the keys it deleted.
 */
export async function sweepOrphanFiles(
  files: R2Bucket,
  databases: readonly Database[],
  now: Date,
  budget = SWEEP_STATEMENTS,
): Promise<string[]> {
  const perStatement = rowsPerStatement(1);
  const cursorObject = await files.get(SWEEP_CURSOR_KEY);
  let startAfter = cursorObject ? await cursorObject.text() : undefined;
  let statements = 0;
  const deleted: string[] = [];
  while (true) {
    const page = await files.list({ prefix: PREFIX, startAfter, limit: perStatement });
    const old = page.objects.filter((o) => o.uploaded.getTime() <= now.getTime() - ORPHAN_AGE_MS);
    const named = new Set<string>();
    for (const keys of chunk([...new Set(old.map((o) => jsonKeyOf(o.key)))], perStatement)) {
      for (const db of databases) {
        statements++;
        const rows = await db
          .select({ key: payPeriodSnapshots.objectKey })
          .from(payPeriodSnapshots)
          .where(inArray(payPeriodSnapshots.objectKey, keys));
        for (const row of rows) if (row.key) named.add(row.key);
      }
    }
    const orphans = old.filter((o) => !named.has(jsonKeyOf(o.key))).map((o) => o.key);
    await deleteFiles(files, orphans);
    deleted.push(...orphans);
    const last = page.objects.at(-1)?.key;
    if (!page.truncated || last === undefined) {
      await files.delete(SWEEP_CURSOR_KEY);
      return deleted;
    }
    startAfter = last;
    if (statements + databases.length > budget) {
      await files.put(SWEEP_CURSOR_KEY, last);
      return deleted;
    }
  }
}
