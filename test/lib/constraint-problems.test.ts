import { idempotencyKeys, writeGuards } from "@db/schema";
import { describe, expect, it } from "vitest";
import { createDatabase } from "@/data/client";
import { guarded, nullInto, REFERENCE_MISSING, refusedBy, whenDuplicate, whenNull } from "@/data/write/constraint-problems";
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
    await expect(guarded(nullGuard(), [whenNull(writeGuards.ok, problem)])).rejects.toMatchObject({ status: 409, code: "SHIFT_CHANGED" });
    await expect(guarded(nullGuard(), [whenNull(writeGuards.settled, problem)])).rejects.not.toMatchObject({ code: "SHIFT_CHANGED" });
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
