import { env } from "cloudflare:test";
import { describe, expect, it } from "vitest";
import { shardBinding } from "@/data/shards";
import { advanceMove, MoveRefused, requestAbort, startMove } from "@/shards/move-organization";
import { PAGE_ROWS } from "@/shards/pages";
import { api } from "../helpers/api";
import { unique } from "../helpers/fixtures";
import { createLocation, sampleLocation } from "../helpers/locations";
import { expectInvalid } from "../helpers/problems";
import { dump, freezeOf, move, movesRecorded, operatorMove, otherShard, rowCount, runMove, shardOf, withoutMoves } from "../helpers/shards";
import { createStaffMember } from "../helpers/staff";
import { accessToken, DEV_PARTNER } from "../helpers/tokens";
import { clockIn, createBreakType, createWorkplace, minutesAgo, punch, type Workplace } from "../helpers/workplace";

/** An organization with rows in most tables: people, places, a day's punches with a break, keys, events, a webhook. */
async function busyOrganization(): Promise<Workplace> {
  const w = await createWorkplace();
  const lunch = await createBreakType(w);
  expect((await clockIn(w, { occurredAt: minutesAgo(60) }, { "Idempotency-Key": unique("in") })).status).toBe(200);
  expect((await punch(w, "break-start", { typeId: lunch.id, occurredAt: minutesAgo(40) })).status).toBe(200);
  expect((await punch(w, "break-end", { occurredAt: minutesAgo(30) })).status).toBe(200);
  expect((await punch(w, "clock-out", {})).status).toBe(200);
  const hook = await api("POST", `/api/organizations/${w.org.id}/webhooks`, {
    token: w.org.adminToken,
    body: { url: "https://hooks.example.com/in" },
  });
  expect(hook.status).toBe(201);
  // More staff members than one page holds, so the copy, the comparison and the keyset walk cross pages.
  const staff = await shardBinding(env, await shardOf(w.org.id))
    .prepare("SELECT * FROM staff_members WHERE id = ?")
    .bind(w.staff.id)
    .first<Record<string, unknown>>();
  const columns = Object.keys(staff!);
  const home = shardBinding(env, await shardOf(w.org.id));
  const copies = Array.from(
    { length: PAGE_ROWS + 20 },
    (_, i): Record<string, unknown> => ({ ...staff!, id: `${w.staff.id}-copy-${String(i).padStart(3, "0")}`, external_id: null }),
  );
  await home.batch(
    copies.map((row) =>
      home
        .prepare(`INSERT INTO staff_members (${columns.join(", ")}) VALUES (${columns.map(() => "?").join(", ")})`)
        .bind(...columns.map((c) => row[c])),
    ),
  );
  return w;
}

describe("moving an organization between shards", () => {
  it("copies every row of the organization to the target byte for byte, flips the directory and leaves none on the source", async () => {
    const w = await busyOrganization();
    const bystander = await createWorkplace();
    const source = await shardOf(w.org.id);
    await shardOf(bystander.org.id);
    const target = otherShard(source);
    const before = await dump(source, w.org.id);
    const bystanderBefore = await dump(source, bystander.org.id);
    expect(
      Object.entries(before)
        .filter(([, rows]) => rows.length > 0)
        .map(([name]) => name),
    ).toEqual(
      expect.arrayContaining([
        "organizations",
        "staff_members",
        "shifts",
        "shift_breaks",
        "shift_events",
        "events",
        "idempotency_keys",
        "webhooks",
      ]),
    );

    const { state } = await move(w.org.id, target);

    expect(state).toMatchObject({
      step: "done",
      source,
      target,
      finished: true,
      rowsCopied: rowCount(before),
      rowsDeleted: rowCount(before),
    });
    // Byte for byte, plus the move's own record on the target: its event and audit entry (actor OPERATOR).
    expect(withoutMoves(await dump(target, w.org.id))).toEqual(before);
    expect(await movesRecorded(target, w.org.id)).toEqual([expect.objectContaining({ actorType: "OPERATOR", actorId: "operator" })]);
    expect(rowCount(await dump(source, w.org.id))).toBe(0);
    expect(await shardOf(w.org.id)).toBe(target);
    // The source keeps a tombstone freeze naming the target; the target has none, so writes go on there.
    expect(await freezeOf(source, w.org.id)).toBe(target);
    expect(await freezeOf(target, w.org.id)).toBeNull();
    expect(await dump(source, bystander.org.id)).toEqual(bystanderBefore);
    expect(rowCount(await dump(target, bystander.org.id))).toBe(0);
  });

  it("leaves the source's rows readable for the settle time after the flip, then deletes them", async () => {
    const w = await createWorkplace();
    const source = await shardOf(w.org.id);
    const target = otherShard(source);
    const before = await dump(source, w.org.id);
    await startMove(env, w.org.id, target);
    let state = await advanceMove(env, w.org.id, { pages: 1, settleMs: 0 });
    while (state.step !== "delete") state = await advanceMove(env, w.org.id, { pages: 1, settleMs: 0 });
    expect(await shardOf(w.org.id)).toBe(target);
    expect(await advanceMove(env, w.org.id, { pages: 10, settleMs: 60_000 })).toMatchObject({ step: "delete", rowsDeleted: 0 });
    expect(await dump(source, w.org.id)).toEqual(before);
    expect((await runMove(w.org.id)).state.step).toBe("done");
    expect(rowCount(await dump(source, w.org.id))).toBe(0);
  });

  it("waits the lifetime of an isolate's directory entry too before deleting: an entry read before the flip still routes to S", async () => {
    const w = await createWorkplace();
    const target = otherShard(await shardOf(w.org.id));
    const kept = { ...env, DIRECTORY_CACHE_SECONDS: "5" };
    await startMove(env, w.org.id, target);
    let state = await advanceMove(kept, w.org.id, { pages: 1, settleMs: 0 });
    while (state.step !== "delete") state = await advanceMove(kept, w.org.id, { pages: 1, settleMs: 0 });
    const flipped = Date.now();
    const flipPlus = (ms: number) => () => new Date(flipped + ms);
    expect(await advanceMove(kept, w.org.id, { pages: 10, settleMs: 1_000, now: flipPlus(5_500) })).toMatchObject({ rowsDeleted: 0 });
    expect(await advanceMove(kept, w.org.id, { pages: 1_000, settleMs: 1_000, now: flipPlus(7_000) })).toMatchObject({ step: "done" });
  });

  it("resumes after an interruption at any point of every step and still ends byte for byte the same", async () => {
    const w = await busyOrganization();
    const source = await shardOf(w.org.id);
    const target = otherShard(source);
    const before = await dump(source, w.org.id);
    await startMove(env, w.org.id, target);
    // Every unit of work runs twice: first in a call whose saving of the move's progress fails (its work on the
    // shards committed, as when a Worker dies between the two), then again in the next call.
    let failNextSave = true;
    const failing = new Proxy(env.DB, {
      get(target, property) {
        const value = Reflect.get(target, property, target);
        if (property !== "prepare") return typeof value === "function" ? value.bind(target) : value;
        return (sql: string) => {
          if (failNextSave && /^update "organization_moves"/i.test(sql)) throw new Error("interrupted before saving");
          return target.prepare(sql);
        };
      },
    });
    const steps = new Set<string>();
    for (let calls = 0; ; calls++) {
      failNextSave = true;
      await expect(advanceMove({ ...env, DB: failing }, w.org.id, { pages: 1, settleMs: 0 })).rejects.toThrow(/interrupted/);
      failNextSave = false;
      const state = await advanceMove(env, w.org.id, { pages: 1, settleMs: 0 });
      steps.add(state.step);
      if (state.finished) break;
      expect(calls).toBeLessThan(1000);
    }
    expect([...steps]).toEqual(expect.arrayContaining(["copy", "verify", "delete", "done"]));
    expect(withoutMoves(await dump(target, w.org.id))).toEqual(before);
    // The flip run twice recorded the move once.
    expect(await movesRecorded(target, w.org.id)).toHaveLength(1);
    expect(rowCount(await dump(source, w.org.id))).toBe(0);
    expect(await shardOf(w.org.id)).toBe(target);
  }, 120_000);

  it("copies again what changed on the source after it was copied: verification finds it", async () => {
    const w = await busyOrganization();
    const source = await shardOf(w.org.id);
    const target = otherShard(source);
    await startMove(env, w.org.id, target);
    let state = await advanceMove(env, w.org.id, { pages: 1, settleMs: 0 });
    while (state.step !== "verify") state = await advanceMove(env, w.org.id, { pages: 1, settleMs: 0 });
    // A writer outside the freeze (an Idempotency-Key answer stored late) changes a copied row.
    await shardBinding(env, source).prepare("UPDATE staff_members SET name = 'Changed late' WHERE id = ?").bind(w.staff.id).run();
    const before = await dump(source, w.org.id);
    const { state: end } = await runMove(w.org.id, { pages: 50 });
    expect(end).toMatchObject({ step: "done", verifyFailures: 1 });
    expect(withoutMoves(await dump(target, w.org.id))).toEqual(before);
  });

  it("leaves out an Idempotency-Key claim still without its answer, and deletes it from the source", async () => {
    const w = await createWorkplace();
    const source = await shardOf(w.org.id);
    const target = otherShard(source);
    const scope = `${DEV_PARTNER}:${w.org.id}:${w.staff.id}`;
    const claim = (shard: string) =>
      shardBinding(env, shard)
        .prepare("SELECT COUNT(*) AS n FROM idempotency_keys WHERE scope = ? AND key = 'running'")
        .bind(scope)
        .first<number>("n");
    await shardBinding(env, source)
      .prepare("INSERT INTO idempotency_keys (scope, key, request_hash, created_at, expires_at) VALUES (?, 'running', 'h', ?, ?)")
      .bind(scope, Date.now(), Date.now() + 86_400_000)
      .run();
    expect((await move(w.org.id, target)).state.step).toBe("done");
    expect(await claim(target)).toBe(0);
    expect(await claim(source)).toBe(0);
  });

  it("moves there and back: requests keep working, and the tombstone left on the first move no longer freezes it", async () => {
    const w = await busyOrganization();
    const source = await shardOf(w.org.id);
    const target = otherShard(source);
    const listed = await api("GET", `/api/organizations/${w.org.id}/staffmembers`, { token: w.org.adminToken });
    const before = await dump(source, w.org.id);
    await move(w.org.id, target);
    expect(await shardOf(w.org.id)).toBe(target);
    expect((await move(w.org.id, source)).state.step).toBe("done");
    expect(await shardOf(w.org.id)).toBe(source);
    expect(await freezeOf(source, w.org.id)).toBeNull();
    expect(await freezeOf(target, w.org.id)).toBe(source);
    expect(withoutMoves(await dump(source, w.org.id))).toEqual(before);
    // Each move recorded on its target, and copied with the organization's other events the next time.
    expect(await movesRecorded(source, w.org.id)).toHaveLength(2);
    // Whichever shard requests go to, the organization answers as before and takes writes.
    const again = await api("GET", `/api/organizations/${w.org.id}/staffmembers`, { token: w.org.adminToken });
    expect(again.status).toBe(200);
    expect(again.body).toEqual(listed.body);
    expect((await clockIn(w)).status).toBe(200);
    expect((await createLocation(w.org)).id).toBeTruthy();
  });
});

describe("after a move", () => {
  it("every request of the organization is served by the target: reads see the moved rows, writes land there", async () => {
    const w = await busyOrganization();
    const source = await shardOf(w.org.id);
    const target = otherShard(source);
    const listed = await api("GET", `/api/organizations/${w.org.id}/staffmembers`, { token: w.org.adminToken });
    await move(w.org.id, target);
    const again = await api("GET", `/api/organizations/${w.org.id}/staffmembers`, { token: w.org.adminToken });
    expect(again.status).toBe(200);
    expect(again.body).toEqual(listed.body);
    expect((await clockIn(w)).status).toBe(200);
    const location = await createLocation(w.org);
    const partner = await accessToken();
    expect((await api("PATCH", `/api/organizations/${w.org.id}`, { token: partner, body: { name: "Moved" } })).status).toBe(200);
    const on = async (shard: string, sql: string, id: string) => shardBinding(env, shard).prepare(sql).bind(id).first<number>("n");
    expect(await on(target, "SELECT COUNT(*) AS n FROM locations WHERE id = ?", location.id)).toBe(1);
    expect(await on(source, "SELECT COUNT(*) AS n FROM locations WHERE id = ?", location.id)).toBe(0);
    expect(await on(target, "SELECT COUNT(*) AS n FROM shifts WHERE employee_id = ? AND end_at IS NULL", w.staff.id)).toBe(1);
    expect(await on(target, "SELECT COUNT(*) AS n FROM organizations WHERE id = ? AND name = 'Moved'", w.org.id)).toBe(1);
    expect(await on(source, "SELECT COUNT(*) AS n FROM organizations WHERE id = ?", w.org.id)).toBe(0);
  });
});

describe("the write freeze", () => {
  it("refuses every write of a frozen organization with 503 ORGANIZATION_MOVING and Retry-After, writing nothing", async () => {
    const w = await busyOrganization();
    const source = await shardOf(w.org.id);
    await startMove(env, w.org.id, otherShard(source));
    // One unit: the freeze, then the move waits for it to settle.
    expect((await advanceMove(env, w.org.id, { pages: 5, settleMs: 60_000 })).step).toBe("freeze");
    expect(await freezeOf(source, w.org.id)).toBe(otherShard(source));
    const before = await dump(source, w.org.id);
    const writes = [
      () => clockIn(w, {}, { "Idempotency-Key": unique("frozen") }),
      () => api("POST", `/api/organizations/${w.org.id}/locations`, { token: w.org.adminToken, body: sampleLocation() }),
      () =>
        api("PATCH", `/api/organizations/${w.org.id}/staffmembers/${w.staff.id}`, { token: w.org.adminToken, body: { name: "Renamed" } }),
      () => api("POST", `/api/organizations/${w.org.id}/staffmembers`, { token: w.org.adminToken, body: { name: "New" } }),
    ];
    for (const write of writes) {
      const res = await write();
      expect(res.status, res.text).toBe(503);
      expect(res.body).toMatchObject({ status: 503, code: "ORGANIZATION_MOVING" });
      expect(Number(res.headers.get("Retry-After"))).toBeGreaterThan(0);
    }
    // A partner-level token's writes of the organization row itself are frozen too.
    const partner = await accessToken();
    for (const method of ["PATCH", "DELETE"]) {
      const res = await api(method, `/api/organizations/${w.org.id}`, {
        token: partner,
        body: method === "PATCH" ? { name: "Renamed" } : undefined,
      });
      expect(res.status, `${method} ${res.text}`).toBe(503);
      expect(res.body.code).toBe("ORGANIZATION_MOVING");
    }
    // Reads go on.
    expect((await api("GET", `/api/organizations/${w.org.id}/staffmembers/${w.staff.id}`, { token: w.org.adminToken })).status).toBe(200);
    expect(await dump(source, w.org.id)).toEqual(before);

    // Aborted, the organization never left: the freeze is gone and writes go through again.
    await requestAbort(env, w.org.id);
    expect((await runMove(w.org.id)).state.step).toBe("aborted");
    expect(await freezeOf(source, w.org.id)).toBeNull();
    expect(rowCount(await dump(otherShard(source), w.org.id))).toBe(0);
    expect((await createStaffMember(w.org)).id).toBeTruthy();
  });

  it("another organization on the same shard writes on while one is frozen", async () => {
    const frozen = await createWorkplace();
    const other = await createWorkplace();
    const source = await shardOf(frozen.org.id);
    await startMove(env, frozen.org.id, otherShard(source));
    await advanceMove(env, frozen.org.id, { settleMs: 60_000 });
    expect((await clockIn(other)).status).toBe(200);
    expect((await clockIn(frozen)).status).toBe(503);
    await requestAbort(env, frozen.org.id);
    await runMove(frozen.org.id);
  });
});

describe("the directory flip", () => {
  it("only flips from the source: a directory entry changed meanwhile fails the move, which can then be aborted", async () => {
    const w = await createWorkplace();
    const source = await shardOf(w.org.id);
    const target = otherShard(source);
    await startMove(env, w.org.id, target);
    let state = await advanceMove(env, w.org.id, { pages: 1, settleMs: 0 });
    while (state.step !== "flip") state = await advanceMove(env, w.org.id, { pages: 1, settleMs: 0 });
    await env.DB.prepare("UPDATE organization_directory SET shard = 'ELSEWHERE' WHERE organization_id = ?").bind(w.org.id).run();
    state = await advanceMove(env, w.org.id, { pages: 1, settleMs: 0 });
    expect(state).toMatchObject({ step: "failed", finished: true });
    expect(state.error).toMatch(/ELSEWHERE/);
    expect(await shardOf(w.org.id)).toBe("ELSEWHERE");
    await expect(requestAbort(env, w.org.id)).rejects.toThrow(MoveRefused);

    await env.DB.prepare("UPDATE organization_directory SET shard = ? WHERE organization_id = ?").bind(source, w.org.id).run();
    await requestAbort(env, w.org.id);
    expect((await runMove(w.org.id)).state.step).toBe("aborted");
    expect(rowCount(await dump(target, w.org.id))).toBe(0);
    expect(rowCount(await dump(source, w.org.id))).toBeGreaterThan(0);
    expect(await freezeOf(source, w.org.id)).toBeNull();
  });
});

describe("POST /operator/organizations/{id}/move", () => {
  it("runs a move call by call and answers its state", async () => {
    const w = await createWorkplace();
    const source = await shardOf(w.org.id);
    const target = otherShard(source);
    const first = await operatorMove(w.org.id, { to: target, pages: 1, settleSeconds: 0 });
    expect(first.status).toBe(200);
    expect(first.body).toMatchObject({ organizationId: w.org.id, source, target, finished: false });
    let state = first.body;
    for (let i = 0; !state.finished && i < 100; i++) state = (await operatorMove(w.org.id, { pages: 50, settleSeconds: 0 })).body;
    expect(state).toMatchObject({ step: "done", finished: true });
    expect(await shardOf(w.org.id)).toBe(target);
  });

  it("refuses a move to the shard the organization is on or to an unknown shard", async () => {
    const w = await createWorkplace();
    const source = await shardOf(w.org.id);
    const same = await operatorMove(w.org.id, { to: source });
    expectInvalid(same, ["to"]);
    expect(same.body.detail).toMatch(/already on/);
    const unknown = await operatorMove(w.org.id, { to: "DB_SHARD_99" });
    expectInvalid(unknown, ["to"]);
    expect(unknown.body.detail).toMatch(/not one of SHARDS/);
    expect(await env.DB.prepare("SELECT COUNT(*) AS n FROM organization_moves WHERE organization_id = ?").bind(w.org.id).first("n")).toBe(
      0,
    );
    expect(await freezeOf(source, w.org.id)).toBeNull();
  });

  it("refuses a second target while a move is under way, and an organization not in the directory", async () => {
    const w = await createWorkplace();
    const source = await shardOf(w.org.id);
    expect((await operatorMove(w.org.id, { to: otherShard(source), pages: 1, settleSeconds: 60 })).status).toBe(200);
    const busy = await operatorMove(w.org.id, { to: source });
    expect(busy.status).toBe(409);
    expect((await operatorMove(w.org.id, { abort: true, pages: 100 })).body).toMatchObject({ step: "aborted" });
    expect((await operatorMove("no-such-organization", { to: source })).status).toBe(404);
  });

  it("refuses a caller without the operator secret and an invalid body", async () => {
    const w = await createWorkplace();
    const source = await shardOf(w.org.id);
    expect((await operatorMove(w.org.id, { to: otherShard(source) }, "wrong")).status).toBe(401);
    expect((await operatorMove(w.org.id, { to: otherShard(source) }, w.org.adminToken)).status).toBe(401);
    const invalid = await operatorMove(w.org.id, { to: otherShard(source), pages: 0 });
    expect(invalid.status).toBe(400);
    expect(invalid.body.code).toBe("VALIDATION_FAILED");
    expect(await freezeOf(source, w.org.id)).toBeNull();
  });
});
