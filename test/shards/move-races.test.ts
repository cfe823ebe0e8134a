import { env } from "cloudflare:test";
import { describe, expect, it } from "vitest";
import { createDatabase } from "@/data/client";
import { purgeExpiredKeys } from "@/data/idempotency";
import { purgeExpiredEvents } from "@/data/outbox/outbox";
import { shardBinding } from "@/data/shards";
import { advanceMove, type MoveState, requestAbort, startMove } from "@/shards/move-organization";
import { unique } from "../helpers/fixtures";
import { dump, freezeOf, movesRecorded, otherShard, rowCount, runMove, shardOf, withoutMoves } from "../helpers/shards";
import { DEV_PARTNER } from "../helpers/tokens";
import { clockIn, createWorkplace } from "../helpers/workplace";

/**
 * `db` whose first statement matching `pattern` (or first batch, for "batch") runs `before` just before it executes:
 * the racing call's work lands between this call's reads and its write.
 */
function racing(db: D1Database, pattern: RegExp | "batch", before: () => Promise<unknown>): D1Database {
  let pending = true;
  const once = async () => {
    if (!pending) return;
    pending = false;
    await before();
  };
  const statement = (stmt: D1PreparedStatement): D1PreparedStatement =>
    new Proxy(stmt, {
      get(target, property) {
        const value = Reflect.get(target, property, target);
        if (property === "bind") return (...values: unknown[]) => statement(target.bind(...values));
        if (["all", "raw", "run", "first"].includes(property as string)) {
          return async (...args: unknown[]) => (await once(), (value as (...a: unknown[]) => unknown).apply(target, args));
        }
        return typeof value === "function" ? value.bind(target) : value;
      },
    });
  return new Proxy(db, {
    get(target, property) {
      const value = Reflect.get(target, property, target);
      if (property === "prepare" && pattern !== "batch") {
        return (sql: string) => (pending && pattern.test(sql) ? statement(target.prepare(sql)) : target.prepare(sql));
      }
      if (property === "batch" && pattern === "batch")
        return async (statements: D1PreparedStatement[]) => (await once(), target.batch(statements));
      return typeof value === "function" ? value.bind(target) : value;
    },
  });
}

/** A DB whose saving of the move's progress fails: the call's work committed, its step did not move on. */
const unsaved = () => racing(env.DB, /^update "organization_moves"/i, async () => Promise.reject(new Error("interrupted before saving")));

async function advanceTo(organizationId: string, step: MoveState["step"]) {
  let state = await advanceMove(env, organizationId, { pages: 1, settleMs: 0 });
  while (state.step !== step) {
    expect(state.finished).toBe(false);
    state = await advanceMove(env, organizationId, { pages: 1, settleMs: 0 });
  }
  return state;
}

async function movingWorkplace(step: MoveState["step"]) {
  const w = await createWorkplace();
  expect((await clockIn(w, {}, { "Idempotency-Key": unique("in") })).status).toBe(200);
  const source = await shardOf(w.org.id);
  const target = otherShard(source);
  const before = await dump(source, w.org.id);
  await startMove(env, w.org.id, target);
  await advanceTo(w.org.id, step);
  return { w, source, target, before };
}

const organizationName = (shard: string, id: string) =>
  shardBinding(env, shard).prepare("SELECT name FROM organizations WHERE id = ?").bind(id).first<string>("name");

describe("an abort racing the flip", () => {
  it("a flip that reads the move before an abort and writes after it does not flip: the abort undoes the copy", async () => {
    const { w, source, target, before } = await movingWorkplace("flip");
    const stale = racing(env.DB, /^update "organization_directory"/i, () => requestAbort(env, w.org.id));
    expect((await advanceMove({ ...env, DB: stale }, w.org.id, { pages: 1, settleMs: 0 })).step).toBe("abort");
    expect(await shardOf(w.org.id)).toBe(source);
    expect((await runMove(w.org.id)).state.step).toBe("aborted");
    expect(await dump(source, w.org.id)).toEqual(before);
    expect(rowCount(await dump(target, w.org.id))).toBe(0);
    expect(await freezeOf(source, w.org.id)).toBeNull();
    expect(await freezeOf(target, w.org.id)).toBeNull();
  });

  it("an abort that reads the directory before a flip and writes after it is refused: the move finishes", async () => {
    const { w, source, target, before } = await movingWorkplace("flip");
    // The flip commits the directory between the abort's reads and its write (its own save comes later).
    const flipped = racing(env.DB, /^update "organization_moves"/i, () =>
      expect(advanceMove({ ...env, DB: unsaved() }, w.org.id, { pages: 1, settleMs: 0 })).rejects.toThrow(),
    );
    await expect(requestAbort({ ...env, DB: flipped }, w.org.id)).rejects.toMatchObject({ status: 409 });
    expect(await shardOf(w.org.id)).toBe(target);
    expect((await runMove(w.org.id)).state.step).toBe("done");
    expect(withoutMoves(await dump(target, w.org.id))).toEqual(before);
    expect(await movesRecorded(target, w.org.id)).toHaveLength(1);
    expect(rowCount(await dump(source, w.org.id))).toBe(0);
  });
});

describe("an abort before the freeze set the target's marker", () => {
  it("finds nothing to undo on the target and unfreezes the source", async () => {
    const w = await createWorkplace();
    const source = await shardOf(w.org.id);
    const target = otherShard(source);
    const before = await dump(source, w.org.id);
    await startMove(env, w.org.id, target);
    await requestAbort(env, w.org.id);
    expect((await runMove(w.org.id)).state.step).toBe("aborted");
    expect(await dump(source, w.org.id)).toEqual(before);
    expect(await freezeOf(source, w.org.id)).toBeNull();
    expect(await freezeOf(target, w.org.id)).toBeNull();
  });
});

describe("a stale call copying after the flip", () => {
  it("is refused on the target, which keeps the rows written there since the flip", async () => {
    const { w, source, target } = await movingWorkplace("copy");
    expect(await freezeOf(target, w.org.id)).toBe(target);
    // A retried call's first invocation read a page of S; before it writes it to T the move runs to its end and
    // the organization is written to on T.
    const finishFirst = racing(shardBinding(env, target), "batch", async () => {
      expect((await runMove(w.org.id)).state.step).toBe("done");
      await shardBinding(env, target).prepare("UPDATE organizations SET name = 'Written on T' WHERE id = ?").bind(w.org.id).run();
    });
    const state = await advanceMove({ ...env, [target]: finishFirst }, w.org.id, { pages: 1, settleMs: 0 });
    expect(state.step).toBe("done");
    expect(await organizationName(target, w.org.id)).toBe("Written on T");
    expect(rowCount(await dump(source, w.org.id))).toBe(0);
    expect(await freezeOf(target, w.org.id)).toBeNull();
  });
});

describe("the Cron's purges during a move", () => {
  it("change nothing of the moving organization on the source or the target, and the move verifies", async () => {
    const w = await createWorkplace();
    expect((await clockIn(w, {}, { "Idempotency-Key": unique("in") })).status).toBe(200);
    const bystander = await createWorkplace();
    expect((await clockIn(bystander, {}, { "Idempotency-Key": unique("in") })).status).toBe(200);
    const source = await shardOf(w.org.id);
    const target = otherShard(source);
    const db = shardBinding(env, source);
    for (const id of [w.org.id, bystander.org.id]) {
      await db.batch([
        db.prepare("UPDATE events SET occurred_at = 0 WHERE organization_id = ?").bind(id),
        db.prepare("UPDATE idempotency_keys SET expires_at = 0 WHERE scope LIKE ?").bind(`${DEV_PARTNER}:${id}:%`),
      ]);
    }
    const before = await dump(source, w.org.id);
    expect(before.events!.length).toBeGreaterThan(1);
    expect(before.idempotency_keys!.length).toBeGreaterThan(0);
    await startMove(env, w.org.id, target);
    await advanceTo(w.org.id, "verify");
    for (const shard of [source, target]) {
      await purgeExpiredEvents(createDatabase(shardBinding(env, shard)));
      await purgeExpiredKeys(createDatabase(shardBinding(env, shard)));
    }
    expect(await dump(source, w.org.id)).toEqual(before);
    expect(await dump(target, w.org.id)).toEqual(before);
    // Organizations not moving are purged as before.
    const left = await dump(source, bystander.org.id);
    expect(left.events).toHaveLength(1);
    expect(left.idempotency_keys).toHaveLength(0);
    expect((await runMove(w.org.id)).state).toMatchObject({ step: "done", verifyFailures: 0 });
    expect(withoutMoves(await dump(target, w.org.id))).toEqual(before);
  });
});

describe("a move that failed once the directory named its target", () => {
  it("may be replaced by a new move from where the organization is", async () => {
    const { w, source, target, before } = await movingWorkplace("delete");
    await env.DB.prepare("UPDATE organization_moves SET step = 'failed', error = 'stopped' WHERE organization_id = ?").bind(w.org.id).run();
    await expect(requestAbort(env, w.org.id)).rejects.toMatchObject({ status: 409 });
    expect(await startMove(env, w.org.id, source)).toMatchObject({ step: "freeze", source: target, target: source });
    expect((await runMove(w.org.id)).state.step).toBe("done");
    expect(await shardOf(w.org.id)).toBe(source);
    // Both moves' records (the first's flip happened), each once.
    expect(withoutMoves(await dump(source, w.org.id))).toEqual(before);
    expect(await movesRecorded(source, w.org.id)).toHaveLength(2);
    expect(rowCount(await dump(target, w.org.id))).toBe(0);
    expect((await clockIn(w)).status).not.toBe(503);
  });
});
