import { idempotencyKeys, writeGuards } from "@db/schema";
import { sql } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { createDatabase } from "@/data/client";
import { guarded, nullInto, REFERENCE_MISSING, refusedBy, whenDuplicate } from "@/data/write/constraint-problems";
import { guard } from "@/data/write/guard";
import { conflict } from "@/problems/problem";
import { tenantDb } from "../helpers/shards";

/** The real refusals of the local D1, so a declared refusal that no longer names what SQLite says fails here. */
describe("declared constraint refusals", () => {
  const db = () => createDatabase(tenantDb());
  const nullGuard = () =>
    db()
      .insert(writeGuards)
      .values({ id: 1, ok: null as unknown as number, settled: 1 })
      .onConflictDoNothing();

  it("names the column a guard wrote NULL into, and no other", async () => {
    const error = await nullGuard().catch((e: unknown) => e);
    expect(refusedBy(error, nullInto(writeGuards.ok))).toBe(true);
    expect(refusedBy(error, nullInto(writeGuards.settled))).toBe(false);
    expect(refusedBy(error, REFERENCE_MISSING)).toBe(false);
  });

  it("turns a known refusal into its problem and lets any other error through", async () => {
    const problem = () => conflict("SHIFT_CHANGED", "changed");
    const onOk = guard({ column: writeGuards.ok, problem, sql: () => sql`NULL` });
    const onSettled = guard({ column: writeGuards.settled, problem, sql: () => sql`NULL` });
    await expect(guarded(nullGuard(), [onOk])).rejects.toMatchObject({ status: 409, code: "SHIFT_CHANGED" });
    await expect(guarded(nullGuard(), [onSettled])).rejects.not.toMatchObject({ code: "SHIFT_CHANGED" });
  });

  it("writes a guard's value while its check holds, and answers its problem (about what the write names) when not", async () => {
    const atMost = guard({
      column: writeGuards.precondition,
      problem: async (limit: number) => conflict("OPEN_SHIFT_FULL", `more than ${limit}`),
      sql: (count: number, limit: number) => sql`(SELECT 1 WHERE ${count} <= ${limit})`,
    });
    const write = (count: number) =>
      db()
        .insert(writeGuards)
        .values({ id: 1, ok: 1, settled: 1, precondition: atMost.sql(count, 3) })
        .onConflictDoNothing();
    await expect(guarded(write(3), [atMost.about(3)])).resolves.toBeDefined();
    await expect(guarded(write(4), [atMost.about(3)])).rejects.toMatchObject({
      status: 409,
      code: "OPEN_SHIFT_FULL",
      detail: "more than 3",
    });
  });

  it("names the table whose unique index refused a second row", async () => {
    const row = { scope: "s", key: `k-${crypto.randomUUID()}`, requestHash: "h", createdAt: new Date(), expiresAt: new Date() };
    await db().insert(idempotencyKeys).values(row);
    const error = await db()
      .insert(idempotencyKeys)
      .values(row)
      .catch((e: unknown) => e);
    expect(
      refusedBy(
        error,
        whenDuplicate(idempotencyKeys, () => conflict("SHIFT_CHANGED", "")),
      ),
    ).toBe(true);
    expect(refusedBy(error, nullInto(writeGuards.ok))).toBe(false);
  });
});
