import { createExecutionContext, createMessageBatch, createScheduledController, env, waitOnExecutionContext } from "cloudflare:test";
import { exports } from "@db/schema";
import { eq } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { createDatabase } from "@/data/client";
import { sha256Hex } from "@/data/files";
import { newId } from "@/data/ids";
import { shardBinding, shardConfig } from "@/data/shards";
import type { ExportMessage } from "@/features/exports/export-chunk";
import { EXPORT_STALL_MS } from "@/jobs/export-resend";
import worker from "@/worker";
import { api } from "../../helpers/api";
import { tenantDb } from "../../helpers/shards";
import { createStaffMember } from "../../helpers/staff";
import { createRole, newYork, seedShifts } from "../../helpers/timesheets";
import { createWorkplace, type Workplace } from "../../helpers/workplace";

/**
 * Exports beyond the happy path (src/jobs/export-resend.ts, src/features/exports/export-chunk.ts): the Cron sends
 * again an export whose message was never sent or got lost; an export of several 5 MiB parts; a crash after the
 * object was completed but before the row said SUCCEEDED. Chunks of 2 rows (EXPORT_CHUNK_ROWS in vitest.config.ts).
 */
const db = createDatabase(tenantDb());
const SHIFTS = 7;
const exportsPath = (w: Workplace, rest = "") => `/api/organizations/${w.org.id}/exports${rest}`;
const MARCH = { kind: "TIMESHEETS", format: "csv", startDate: "2026-03-01", endDate: "2026-03-31" };

async function march() {
  const w = await createWorkplace();
  const role = await createRole(w, 18.5, "Barista");
  const ada = await createStaffMember(w.org, { locationIds: [w.location.id] });
  await seedShifts(
    w.org.id,
    Array.from({ length: SHIFTS }, (_, i) => ({
      employeeId: i % 2 ? ada.id : w.staff.id,
      locationId: w.location.id,
      roleId: role.id,
      hourlyWage: 18.5,
      minutes: 300 + i,
      ...newYork(`2026-03-${String(10 + i).padStart(2, "0")}T09:00:00`),
    })),
  );
  return w;
}

/** The messages a queue binding was given. */
function recordingQueue(failSend = false) {
  const sent: ExportMessage[] = [];
  const queue = {
    send: async (body: ExportMessage) => {
      if (failSend) throw new Error("injected queue failure");
      sent.push(body);
    },
    sendBatch: async (messages: { body: ExportMessage }[]) => {
      sent.push(...messages.map((m) => m.body));
    },
  };
  return { queue, sent };
}

/** POST …/exports through the Worker's fetch with EXPORT_QUEUE as given. */
async function createWith(w: Workplace, queue: unknown, body: Record<string, unknown> = MARCH) {
  const request = new Request(`http://shiftline.test${exportsPath(w)}`, {
    method: "POST",
    headers: { Authorization: `Bearer ${w.org.adminToken}`, "Content-Type": "application/json" },
    body: JSON.stringify(body),
  });
  const ctx = createExecutionContext();
  const response = await worker.fetch(request as never, { ...env, EXPORT_QUEUE: queue } as Env, ctx);
  await waitOnExecutionContext(ctx);
  return { status: response.status, body: (await response.json()) as Record<string, any> };
}

/** The Cron at `at`, with EXPORT_QUEUE as given. */
async function cron(at: Date, queue: unknown) {
  const ctx = createExecutionContext();
  await worker.scheduled(
    createScheduledController({ scheduledTime: at, cron: "*/30 * * * *" }),
    { ...env, EXPORT_QUEUE: queue } as Env,
    ctx,
  );
  await waitOnExecutionContext(ctx);
}

/** One delivery of the export's message through the Worker's queue handler (with `bindings` over env). */
async function deliver(organizationId: string, exportId: string, bindings: Record<string, unknown> = {}) {
  const batch = createMessageBatch<ExportMessage>("shiftline-exports", [
    { id: newId(), timestamp: new Date(), attempts: 1, body: { exportId, organizationId } },
  ]);
  await worker.queue(batch as never, { ...env, ...bindings } as Env);
}

const rowOf = async (id: string) => (await db.select().from(exports).where(eq(exports.id, id)))[0]!;

async function work(organizationId: string, id: string) {
  for (let i = 0; i < 60; i++) {
    const row = await rowOf(id);
    if (row.status === "SUCCEEDED" || row.status === "FAILED") return row;
    await deliver(organizationId, id);
  }
  throw new Error("the export did not finish");
}

const succeededEvents = async (w: Workplace, id: string) =>
  (await api("GET", `/api/organizations/${w.org.id}/events?types=export.succeeded`, { token: w.org.adminToken })).body.filter(
    (e: { data: { id: string } }) => e.data.id === id,
  );

/** Moves the export's row back in time, as if nothing had worked it for `ms`. */
const age = (id: string, ms: number) =>
  tenantDb().prepare("UPDATE exports SET updated_at = updated_at - ? WHERE id = ?").bind(ms, id).run();

async function expectTheFile(w: Workplace, id: string) {
  const file = await api("GET", exportsPath(w, `/${id}/download`), { token: w.org.adminToken });
  expect(file.status).toBe(200);
  const sync = await api("GET", "/api/timesheets/export?startDate=2026-03-01&endDate=2026-03-31", { token: w.org.adminToken });
  expect(file.text).toBe(sync.text);
  const job = await rowOf(id);
  const bytes = new TextEncoder().encode(file.text);
  expect(job).toMatchObject({ status: "SUCCEEDED", rowsWritten: SHIFTS, bytes: bytes.byteLength, sha256: await sha256Hex(bytes) });
  expect(await succeededEvents(w, id)).toHaveLength(1);
}

describe("exports the Cron sends again", () => {
  it("an export whose queue send failed is answered 202 and stays QUEUED; the Cron sends it again once it has waited 5 minutes, once", async () => {
    const w = await march();
    const failing = recordingQueue(true);
    const res = await createWith(w, failing.queue);
    expect(res.status).toBe(202);
    expect(res.body).toMatchObject({ status: "QUEUED" });
    const id = res.body.id as string;
    const created = await rowOf(id);

    // Not yet: a message may still be on its way.
    const early = recordingQueue();
    await cron(new Date(created.updatedAt.getTime() + EXPORT_STALL_MS - 1000), early.queue);
    expect(early.sent.filter((m) => m.exportId === id)).toEqual([]);

    const due = new Date(created.updatedAt.getTime() + EXPORT_STALL_MS + 1000);
    const resent = recordingQueue();
    await cron(due, resent.queue);
    expect(resent.sent.filter((m) => m.exportId === id)).toEqual([{ exportId: id, organizationId: w.org.id }]);
    expect(await rowOf(id)).toMatchObject({ status: "QUEUED", chunk: 0, rowsWritten: 0 });
    // Claimed: the next run leaves it alone.
    const again = recordingQueue();
    await cron(new Date(due.getTime() + 60_000), again.queue);
    expect(again.sent.filter((m) => m.exportId === id)).toEqual([]);

    await work(w.org.id, id);
    await expectTheFile(w, id);
    // Finished: never sent again.
    await age(id, 2 * EXPORT_STALL_MS);
    const after = recordingQueue();
    await cron(new Date(Date.now() + EXPORT_STALL_MS), after.queue);
    expect(after.sent.filter((m) => m.exportId === id)).toEqual([]);
  });

  it("a RUNNING export whose chain of messages was lost is sent again; the late original too: every row once", async () => {
    const w = await march();
    const res = await api("POST", exportsPath(w), { token: w.org.adminToken, body: MARCH });
    const id = res.body.id as string;
    await deliver(w.org.id, id);
    expect(await rowOf(id)).toMatchObject({ status: "RUNNING", chunk: 1, rowsWritten: 2 });
    await age(id, EXPORT_STALL_MS + 1000);
    const resent = recordingQueue();
    await cron(new Date(), resent.queue);
    expect(resent.sent.filter((m) => m.exportId === id)).toHaveLength(1);
    // The resent message and the lost one, both delivered, each chunk by both.
    for (let i = 0; i < 10 && (await rowOf(id)).status === "RUNNING"; i++) {
      await Promise.all([deliver(w.org.id, id), deliver(w.org.id, id)]);
    }
    await expectTheFile(w, id);
  });
});

describe("exports in parts", () => {
  it("an export of several 5 MiB parts: every part but the last the same size, its bytes and SHA-256 as recorded", async () => {
    const w = await createWorkplace();
    const res = await api("POST", exportsPath(w), {
      token: w.org.adminToken,
      body: { kind: "EVENTS", format: "json", startDate: "2026-01-01", endDate: "2026-12-31" },
    });
    expect(res.status).toBe(202);
    const id = res.body.id as string;
    // Thirty events of 300 to 870 kB (≈ 14 MB), dated in the range: chunks of 2 events of unequal sizes.
    await tenantDb()
      .prepare(
        `INSERT INTO events (id, organization_id, sequence, type, occurred_at, form, data)
         WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n WHERE i < 30)
         SELECT ?1 || printf('%04d', n.i), ?2, 1000 + n.i, 'export.created', ?3, 'wire',
           json_object('padding', hex(zeroblob(150000 + (n.i * 7919) % 285000)))
         FROM n`,
      )
      .bind(`big-${id.slice(0, 8)}-`, w.org.id, Date.parse("2026-06-01T00:00:00Z"))
      .run();
    const parts: number[] = [];
    const files = new Proxy(env.FILES, {
      get(target, property) {
        if (property === "resumeMultipartUpload") {
          return (key: string, uploadId: string) => {
            const upload = target.resumeMultipartUpload(key, uploadId);
            return {
              uploadPart: (n: number, body: Uint8Array) => {
                parts.push(body.byteLength);
                return upload.uploadPart(n, body);
              },
              complete: (list: R2UploadedPart[]) => upload.complete(list),
              abort: () => upload.abort(),
            };
          };
        }
        const value = Reflect.get(target, property);
        return typeof value === "function" ? value.bind(target) : value;
      },
    });
    for (let i = 0; i < 30 && ["QUEUED", "RUNNING"].includes((await rowOf(id)).status); i++) await deliver(w.org.id, id, { FILES: files });
    const done = await rowOf(id);
    expect(done).toMatchObject({ status: "SUCCEEDED", error: null });
    expect(parts.length).toBeGreaterThanOrEqual(3);
    expect(new Set(parts.slice(0, -1))).toEqual(new Set([5 * 1024 * 1024]));
    expect(done.parts).toHaveLength(parts.length);
    const file = await api("GET", exportsPath(w, `/${id}/download`), { token: w.org.adminToken });
    expect(file.status).toBe(200);
    const bytes = new TextEncoder().encode(file.text);
    expect(bytes.byteLength).toBe(done.bytes);
    expect(await sha256Hex(bytes)).toBe(done.sha256);
    const events = JSON.parse(file.text) as { sequence: number }[];
    // The workplace's own events of 2026 and the thirty, each once.
    expect(done.rowsWritten).toBe(events.length);
    expect(new Set(events.map((e) => e.sequence)).size).toBe(events.length);
    expect(events.filter((e) => e.sequence > 1000).map((e) => e.sequence)).toEqual(Array.from({ length: 30 }, (_, i) => 1001 + i));
  });

  it("a crash after the object was completed, before the row said SUCCEEDED: the retried message neither duplicates nor loses a row", async () => {
    const w = await march();
    const res = await api("POST", exportsPath(w), { token: w.org.adminToken, body: MARCH });
    const id = res.body.id as string;
    const shard = shardConfig(env).placement;
    const binding = shardBinding(env, shard);
    const sqlOf = new WeakMap<D1PreparedStatement, string>();
    let crashed = false;
    const track = (statement: D1PreparedStatement, sql: string): D1PreparedStatement => {
      sqlOf.set(statement, sql);
      const bind = statement.bind.bind(statement);
      statement.bind = (...values: unknown[]) => track(bind(...values), sql);
      return statement;
    };
    // The batch recording SUCCEEDED (the row's update with export.succeeded) fails once: the Worker died there.
    const crashing = {
      prepare: (sql: string) => track(binding.prepare(sql), sql),
      batch: async (statements: D1PreparedStatement[]) => {
        const sqls = statements.map((s) => sqlOf.get(s) ?? "");
        if (!crashed && sqls.some((s) => /^update "exports"/.test(s)) && sqls.some((s) => /"events"/.test(s))) {
          crashed = true;
          throw new Error("injected crash before the commit");
        }
        return binding.batch(statements);
      },
    };
    for (let i = 0; i < 10 && !crashed; i++) await deliver(w.org.id, id, { [shard]: crashing });
    expect(crashed).toBe(true);
    const before = await rowOf(id);
    expect(before.status).toBe("RUNNING");
    // The object is complete already; the row does not say so.
    expect(await env.FILES.head(before.objectKey)).not.toBeNull();
    expect(await succeededEvents(w, id)).toEqual([]);

    await deliver(w.org.id, id);
    expect(await rowOf(id)).toMatchObject({ status: "SUCCEEDED", chunk: before.chunk + 1 });
    await expectTheFile(w, id);
    // Once more (a duplicate): nothing changes.
    const done = await rowOf(id);
    await deliver(w.org.id, id);
    expect(await rowOf(id)).toEqual(done);
  });
});
