import { createExecutionContext, createScheduledController, env, waitOnExecutionContext } from "cloudflare:test";
import { describe, expect, it } from "vitest";
import { createDatabase } from "@/data/client";
import { FileExistsError, putFile, sha256Hex } from "@/data/files";
import { shardBinding, shardConfig } from "@/data/shards";
import { canonicalJson } from "@/domain/canonical-json";
import { parseCsv } from "@/domain/csv";
import { packSnapshot } from "@/features/pay/snapshot.data";
import { ORPHAN_AGE_MS, SWEEP_CURSOR_KEY, sweepOrphanFiles } from "@/jobs/sweep-files";
import worker from "@/worker";
import { api } from "../../helpers/api";
import { closePeriod, PERIOD, periodsPath, reopenPeriod, WEEK, workDay } from "../../helpers/pay";
import { shardOf } from "../../helpers/shards";
import { createStaffMember } from "../../helpers/staff";
import { createWorkplace, type Workplace } from "../../helpers/workplace";

const payroll = (w: Workplace, query = "", period: string = PERIOD) =>
  api("GET", `${periodsPath(w.org)}/${period}/payroll${query}`, { token: w.org.adminToken });

interface Row {
  version: number;
  snapshot: string | null;
  snapshot_hash: string;
  object_key: string | null;
  object_size: number | null;
  object_sha256: string | null;
}

async function orgDb(w: Workplace) {
  return shardBinding(env, await shardOf(w.org.id));
}

async function snapshotRows(w: Workplace, period = PERIOD) {
  const { results } = await (await orgDb(w))
    .prepare("SELECT * FROM pay_period_snapshots WHERE organization_id = ? AND period_start_date = ? ORDER BY version")
    .bind(w.org.id, period)
    .all<Row>();
  return results;
}

async function objectsOf(w: Workplace) {
  return (await env.FILES.list({ prefix: `payroll/${w.org.id}/` })).objects.map((o) => o.key).sort();
}

const hex = (buffer: ArrayBuffer) => Array.from(new Uint8Array(buffer), (b) => b.toString(16).padStart(2, "0")).join("");
const bytesOf = async (key: string) => new Uint8Array(await (await env.FILES.get(key))!.arrayBuffer());

/** A workplace whose staff member worked Monday and Tuesday of WEEK, and a colleague who worked Wednesday. */
async function workedWeek() {
  const w = await createWorkplace();
  const colleague = await createStaffMember(w.org, { locationIds: [w.location.id] });
  await workDay(w, WEEK[0], 8);
  await workDay(w, WEEK[1], 9);
  await workDay({ ...w, staff: colleague }, WEEK[2], 6);
  return { w, colleague };
}

const databases = () => shardConfig(env).shards.map((shard) => createDatabase(shardBinding(env, shard)));
const later = () => new Date(Date.now() + ORPHAN_AGE_MS + 60_000);

describe("payroll snapshots in R2 (FILES)", () => {
  it("a close writes the JSON and CSV objects; D1 keeps the key, size and SHA-256; the payroll streams them", async () => {
    const { w, colleague } = await workedWeek();
    const closed = await closePeriod(w, PERIOD, { approveAll: true });
    expect(closed.status).toBe(200);
    const [row] = await snapshotRows(w);
    expect(row).toMatchObject({ version: 1, snapshot: null, snapshot_hash: closed.body.snapshotHash });
    expect(row!.object_key).toMatch(new RegExp(`^payroll/${w.org.id}/${PERIOD}/v1/[0-9a-f-]{36}\\.json$`));
    const jsonKey = row!.object_key!;
    const csvKey = jsonKey.replace(/\.json$/, ".csv");
    expect(await objectsOf(w)).toEqual([csvKey, jsonKey].sort());
    const bytes = await bytesOf(jsonKey);
    expect(row!.object_size).toBe(bytes.byteLength);
    expect(row!.object_sha256).toBe(await sha256Hex(bytes));
    const head = await env.FILES.head(jsonKey);
    // R2 checked the SHA-256 as it received the bytes, and keeps it.
    expect(hex(head!.checksums.sha256!)).toBe(row!.object_sha256);

    // approveAll's timesheet.approved events: one per staff member, as the approval endpoint records them.
    const approved = (await api("GET", `/api/organizations/${w.org.id}/events?limit=500`, { token: w.org.adminToken })).body.filter(
      (e: { type: string }) => e.type === "timesheet.approved",
    );
    const wire = { periodId: PERIOD, startDate: PERIOD, endDate: WEEK[6], approved: true, approvedAt: closed.body.closedAt };
    expect(approved.map((e: { data: unknown }) => e.data)).toEqual(
      [w.staff.id, colleague.id].sort().map((employeeId) => ({ ...wire, employeeId, approvedBy: closed.body.closedBy })),
    );

    const json = await payroll(w);
    expect(json.status).toBe(200);
    expect(json.text).toBe(new TextDecoder().decode(bytes));
    expect(json.headers.get("Content-Length")).toBe(String(bytes.byteLength));
    const { snapshotHash, ...document } = json.body;
    expect(snapshotHash).toBe(closed.body.snapshotHash);
    expect(await sha256Hex(new TextEncoder().encode(canonicalJson(document)))).toBe(snapshotHash);

    const csv = await payroll(w, "?format=csv");
    expect(csv.status).toBe(200);
    expect(csv.headers.get("Content-Disposition")).toBe(`attachment; filename="payroll-${PERIOD}-v1.csv"`);
    expect(csv.text).toBe(new TextDecoder().decode(await bytesOf(csvKey)));
    const [header, ...rows] = parseCsv(csv.text);
    expect(header![0]).toBe("employeeId");
    expect(rows.map((r) => r[0]).sort()).toEqual(document.employees.map((e: { employeeId: string }) => e.employeeId).sort());
  });

  it("a reopen and a re-close write v2 beside v1, which stays as it was", async () => {
    const { w } = await workedWeek();
    await closePeriod(w, PERIOD, { approveAll: true });
    const [v1] = await snapshotRows(w);
    const v1Key = v1!.object_key!;
    const v1Head = await env.FILES.head(v1Key);
    const v1Bytes = await bytesOf(v1Key);
    expect((await reopenPeriod(w, PERIOD)).status).toBe(200);
    const newcomer = await createStaffMember(w.org, { locationIds: [w.location.id] });
    await workDay({ ...w, staff: newcomer }, WEEK[3], 3);
    const second = await closePeriod(w, PERIOD, { approveAll: true });
    expect(second.status).toBe(200);
    const rows = await snapshotRows(w);
    expect(rows.map((r) => r.version)).toEqual([1, 2]);
    expect(rows[1]!.object_key).toMatch(new RegExp(`^payroll/${w.org.id}/${PERIOD}/v2/`));
    expect((await objectsOf(w)).length).toBe(4);
    const after = await env.FILES.head(v1Key);
    expect(after!.etag).toBe(v1Head!.etag);
    expect(after!.uploaded.getTime()).toBe(v1Head!.uploaded.getTime());
    expect(await bytesOf(v1Key)).toEqual(v1Bytes);
    const json = await payroll(w);
    expect(json.body).toMatchObject({ version: 2, snapshotHash: second.body.snapshotHash });
    expect(json.text).toBe(new TextDecoder().decode(await bytesOf(rows[1]!.object_key!)));
  });

  it("an object is never overwritten: a put to an existing key is refused and changes nothing", async () => {
    const key = `payroll/test-${crypto.randomUUID()}/2026-06-01/v1/x.json`;
    const stored = await putFile(env.FILES, key, "first", "text/plain");
    expect(stored).toEqual({ key, size: 5, sha256: await sha256Hex(new TextEncoder().encode("first")) });
    await expect(putFile(env.FILES, key, "second", "text/plain")).rejects.toBeInstanceOf(FileExistsError);
    expect(await (await env.FILES.get(key))!.text()).toBe("first");
    await env.FILES.delete(key);
  });

  it("a close whose D1 batch fails shows no snapshot; its objects are orphans the sweep deletes after an hour", async () => {
    const { w } = await workedWeek();
    // A committed snapshot of another period, which the sweep must keep.
    const kept = addWeek(PERIOD, -1);
    expect((await closePeriod(w, kept, { approveAll: true })).status).toBe(200);
    const committed = await objectsOf(w);
    expect(committed).toHaveLength(2);
    const db = await orgDb(w);
    await db
      .prepare(
        `CREATE TRIGGER fail_snapshot BEFORE INSERT ON pay_period_snapshots WHEN NEW.period_start_date = '${PERIOD}' AND NEW.organization_id = '${w.org.id}' BEGIN SELECT RAISE(ABORT, 'injected failure'); END`,
      )
      .run();
    try {
      const failed = await closePeriod(w, PERIOD, { approveAll: true });
      expect(failed.status).toBe(500);
    } finally {
      await db.prepare("DROP TRIGGER fail_snapshot").run();
    }
    const orphans = (await objectsOf(w)).filter((key) => !committed.includes(key));
    expect(orphans).toHaveLength(2);
    expect(orphans.every((key) => key.startsWith(`payroll/${w.org.id}/${PERIOD}/v1/`))).toBe(true);
    expect(await snapshotRows(w)).toEqual([]);
    expect((await payroll(w)).body).toMatchObject({ code: "PAY_PERIOD_OPEN" });
    expect((await api("GET", `${periodsPath(w.org)}/${PERIOD}`, { token: w.org.adminToken })).body).toMatchObject({
      status: "OPEN",
      version: 0,
    });

    // Younger than an hour: a close may still be committing them.
    expect(await sweepOrphanFiles(env.FILES, databases(), new Date())).not.toEqual(expect.arrayContaining(orphans));
    expect(await objectsOf(w)).toEqual([...committed, ...orphans].sort());
    // The Cron Trigger, an hour on (until its sweep has walked the whole bucket: other files' objects may be there).
    for (let run = 0; run < 10; run++) {
      const ctx = createExecutionContext();
      await worker.scheduled(createScheduledController({ scheduledTime: later(), cron: "*/30 * * * *" }), env, ctx);
      await waitOnExecutionContext(ctx);
      if ((await env.FILES.head(SWEEP_CURSOR_KEY)) === null) break;
    }
    expect(await objectsOf(w)).toEqual(committed);
    expect(await env.FILES.head(SWEEP_CURSOR_KEY)).toBeNull();
    expect((await payroll(w, "", kept)).status).toBe(200);

    // The retry closes, with objects of its own.
    const retried = await closePeriod(w, PERIOD, { approveAll: true });
    expect(retried.status).toBe(200);
    expect((await payroll(w)).body).toMatchObject({ version: 1, snapshotHash: retried.body.snapshotHash });
  });

  it("the sweep stops at its statement budget and carries on after the last key it examined on the next run", async () => {
    const w = await createWorkplace();
    const prefix = `payroll/sweep-${crypto.randomUUID()}/`;
    const keyOf = (i: number) => `${prefix}${String(i).padStart(4, "0")}.json`;
    // 150 objects named by committed rows, then 100 orphans: a run sees one page (100 keys) within its budget.
    const keys = Array.from({ length: 250 }, (_, i) => keyOf(i));
    for (const key of keys) await env.FILES.put(key, "{}");
    await (await orgDb(w))
      .prepare(
        `INSERT INTO pay_period_snapshots (organization_id, period_start_date, version, snapshot_hash, object_key)
         WITH RECURSIVE n(i) AS (SELECT 0 UNION ALL SELECT i + 1 FROM n WHERE i < 149)
         SELECT ?, '2026-06-01', i + 1, 'x', ? || printf('%04d', i) || '.json' FROM n`,
      )
      .bind(w.org.id, prefix)
      .run();
    const budget = databases().length;
    await sweepOrphanFiles(env.FILES, databases(), later(), budget);
    expect(await env.FILES.head(SWEEP_CURSOR_KEY)).not.toBeNull();
    for (let run = 0; run < 10 && (await env.FILES.head(SWEEP_CURSOR_KEY)) !== null; run++) {
      await sweepOrphanFiles(env.FILES, databases(), later(), budget);
    }
    expect(await env.FILES.head(SWEEP_CURSOR_KEY)).toBeNull();
    expect((await env.FILES.list({ prefix })).objects.map((o) => o.key)).toEqual(keys.slice(0, 150));
  });

  it("a snapshot stored in D1 before R2 is still answered, JSON and CSV", async () => {
    const { w } = await workedWeek();
    await closePeriod(w, PERIOD, { approveAll: true });
    const json = await payroll(w);
    const csv = await payroll(w, "?format=csv");
    const { snapshotHash, ...document } = json.body;
    const [row] = await snapshotRows(w);
    // As a close before the migration stored it: the packed canonical JSON, no object.
    await (await orgDb(w))
      .prepare(
        "UPDATE pay_period_snapshots SET snapshot = ?, object_key = NULL, object_size = NULL, object_sha256 = NULL WHERE organization_id = ? AND period_start_date = ?",
      )
      .bind(await packSnapshot(canonicalJson(document)), w.org.id, PERIOD)
      .run();
    await env.FILES.delete([row!.object_key!, row!.object_key!.replace(/\.json$/, ".csv")]);
    const again = await payroll(w);
    expect(again.status).toBe(200);
    expect(again.text).toBe(json.text);
    expect(again.body.snapshotHash).toBe(snapshotHash);
    const againCsv = await payroll(w, "?format=csv");
    expect(againCsv.status).toBe(200);
    expect(againCsv.text).toBe(csv.text);
  });
});

function addWeek(date: string, weeks: number) {
  const d = new Date(`${date}T00:00:00Z`);
  d.setUTCDate(d.getUTCDate() + 7 * weeks);
  return d.toISOString().slice(0, 10);
}
