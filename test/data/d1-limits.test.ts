import { createExecutionContext, env, waitOnExecutionContext } from "cloudflare:test";
import { describe, expect, it, vi } from "vitest";
import { D1_LIMITS } from "@/data/d1-limits";
import { D1LimitError, limitedD1 } from "@/data/limited-d1";
import worker from "@/worker";

const placeholders = (n: number) => Array.from({ length: n }, () => "?").join(", ");
const ones = (n: number) => Array.from({ length: n }, () => 1);

/** What a rejected call failed with. */
const failure = async (call: () => Promise<unknown>) => {
  try {
    await call();
  } catch (error) {
    return error;
  }
  throw new Error("the call did not fail");
};

describe("the D1 limits guard, on real local D1", () => {
  // Each statement here runs on local D1 as it is: it enforces none of these limits, the guard does.
  // Local D1 already refuses more than 100 bound parameters and SQL over 100,000 bytes; not the others.
  const overLimit: [string, string, unknown[]][] = [
    ["boundParameters", `SELECT ${placeholders(101)}`, ones(101)],
    ["sqlBytes", `SELECT 1 /*${" ".repeat(100_000)}*/`, []],
    ["valueBytes", "SELECT length(?)", ["é".repeat(1_000_001)]],
    ["functionArguments", `SELECT max(${placeholders(33)})`, ones(33)],
  ];

  it.each(overLimit)("refuses a statement over %s", async (limit, sql, values) => {
    if (limit === "valueBytes" || limit === "functionArguments")
      await expect(
        env.DB.prepare(sql)
          .bind(...values)
          .all(),
      ).resolves.toMatchObject({ success: true });
    const db = limitedD1(env.DB);
    for (const call of [
      () =>
        db
          .prepare(sql)
          .bind(...values)
          .all(),
      () =>
        db
          .prepare(sql)
          .bind(...values)
          .first(),
      () =>
        db
          .prepare(sql)
          .bind(...values)
          .run(),
      () =>
        db
          .prepare(sql)
          .bind(...values)
          .raw(),
      () => db.batch([db.prepare("SELECT 1"), db.prepare(sql).bind(...values)]),
      () =>
        db
          .withSession("first-primary")
          .prepare(sql)
          .bind(...values)
          .first(),
      () => {
        const session = db.withSession();
        return session.batch([session.prepare(sql).bind(...values)]);
      },
    ]) {
      const error = await failure(call);
      expect(error).toBeInstanceOf(D1LimitError);
      expect((error as D1LimitError).violation.limit).toBe(limit);
      expect((error as D1LimitError).message).toContain(`D1 limit ${limit} exceeded`);
    }
  });

  it("runs statements at the limits", async () => {
    const db = limitedD1(env.DB);
    const sql = `SELECT json_array(${placeholders(D1_LIMITS.functionArguments)}) AS a, ${placeholders(68)}`;
    const row = await db
      .prepare(sql)
      .bind(...ones(100))
      .first<{ a: string }>();
    expect(JSON.parse(row!.a)).toHaveLength(32);
  });

  it("refuses the query past 1,000 in one invocation, a batch's statements counted one by one, over every binding", async () => {
    const count = { queries: 0 };
    const db = limitedD1(env.DB, count);
    const other = limitedD1(env.DB_SHARD_2, count);
    await db.batch(Array.from({ length: 998 }, () => db.prepare("SELECT 1")));
    await other.prepare("SELECT 1").first();
    await db.withSession().prepare("SELECT 1").all();
    expect(count.queries).toBe(1_000);
    const error = await failure(() => other.prepare("SELECT 1").run());
    expect((error as D1LimitError).violation).toEqual({ limit: "queriesPerInvocation", max: 1_000, actual: 1_001 });
    // Another invocation has a budget of its own.
    await expect(limitedD1(env.DB).prepare("SELECT 1 AS one").first()).resolves.toEqual({ one: 1 });
  });
});

describe("every workerd test runs under the guard", () => {
  it("sets D1_LIMITS_ENFORCED for the Worker the tests call", () => {
    expect((env as { D1_LIMITS_ENFORCED?: string }).D1_LIMITS_ENFORCED).toBe("1");
  });

  // GET /api/health runs one SELECT 1 on each shard: with 1,002 of them (the extra ones all this one database), one
  // invocation sends 1,002 queries; the guard fails the 1,001st, which the health check answers as 503.
  const manyShards = (enforced: string) => {
    const names = Array.from({ length: 1_000 }, (_, i) => `SHARD_${i}`);
    return {
      ...env,
      ...Object.fromEntries(names.map((name) => [name, env.DB])),
      SHARDS: ["DB", "DB_SHARD_2", ...names].join(","),
      D1_LIMITS_ENFORCED: enforced,
    } as Env;
  };
  const health = async (bindings: Env) => {
    const ctx = createExecutionContext();
    const response = await worker.fetch(new Request("http://shiftline.test/api/health"), bindings, ctx);
    await waitOnExecutionContext(ctx);
    return response.status;
  };

  it("fails an invocation of the Worker's fetch past 1,000 queries", async () => {
    const logged = vi.spyOn(console, "error");
    try {
      expect(await health(manyShards("1"))).toBe(503);
      expect(logged).toHaveBeenCalledWith("D1 limit queriesPerInvocation exceeded: 1001 > 1000: SELECT 1");
    } finally {
      logged.mockRestore();
    }
    expect(await health(env)).toBe(200);
  });
});
