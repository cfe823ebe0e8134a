import { createExecutionContext, createMessageBatch, env, getQueueResult } from "cloudflare:test";
import { exports } from "@db/schema";
import { eq } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { createDatabase } from "@/data/client";
import { sha256Hex } from "@/data/files";
import { newId } from "@/data/ids";
import { shardBinding, shardConfig } from "@/data/shards";
import type { ExportMessage } from "@/features/exports/export-chunk";
import worker from "@/worker";
import { api } from "../../helpers/api";
import { expectInvalid } from "../../helpers/problems";
import { tenantDb } from "../../helpers/shards";
import { createStaffMember } from "../../helpers/staff";
import { createRole, newYork, seedShifts } from "../../helpers/timesheets";
import { createWorkplace, type Workplace } from "../../helpers/workplace";

const db = createDatabase(tenantDb());
const SHIFTS = 7;
const exportsPath = (w: Workplace, rest = "") => `/api/organizations/${w.org.id}/exports${rest}`;

/** Seven shifts in March (chunks of 2 rows in the tests: four chunks), for two staff members. */
async function march() {
  const w = await createWorkplace();
  const role = await createRole(w, 18.5, "Barista");
  const ada = await createStaffMember(w.org, { name: 'Ada, "the" =Cook', locationIds: [w.location.id] });
  const seeds = Array.from({ length: SHIFTS }, (_, i) => ({
    employeeId: i % 2 ? ada.id : w.staff.id,
    locationId: w.location.id,
    roleId: role.id,
    hourlyWage: 18.5,
    minutes: 300 + i,
    ...newYork(`2026-03-${String(10 + i).padStart(2, "0")}T09:00:00`),
  }));
  await seedShifts(w.org.id, seeds);
  return w;
}

const create = (w: Workplace, body: Record<string, unknown>) => api("POST", exportsPath(w), { token: w.org.adminToken, body });

/** One delivery of the export's message through the Worker's queue handler. */
async function deliver(organizationId: string, exportId: string, attempts = 1) {
  const batch = createMessageBatch<ExportMessage>("shiftline-exports", [
    { id: newId(), timestamp: new Date(), attempts, body: { exportId, organizationId } },
  ]);
  const ctx = createExecutionContext();
  await worker.queue(batch as never, env);
  return getQueueResult(batch, ctx);
}

/**
 * One delivery that reads the export's state, then waits before its write for `meanwhile` (other deliveries working
 * the chunks after it): a message redelivered while its first delivery was still running, or after a crash.
 */
async function staleDelivery(organizationId: string, exportId: string, meanwhile: () => Promise<unknown>) {
  const shard = shardConfig(env).placement;
  const binding = shardBinding(env, shard);
  const sqlOf = new WeakMap<D1PreparedStatement, string>();
  let pending = true;
  const track = (statement: D1PreparedStatement, sql: string): D1PreparedStatement => {
    sqlOf.set(statement, sql);
    const bind = statement.bind.bind(statement);
    statement.bind = (...values: unknown[]) => track(bind(...values), sql);
    return statement;
  };
  const interfering = {
    prepare: (sql: string) => track(binding.prepare(sql), sql),
    batch: async (statements: D1PreparedStatement[]) => {
      if (pending && statements.some((s) => /^update "exports"/.test(sqlOf.get(s) ?? ""))) {
        pending = false;
        await meanwhile();
      }
      return binding.batch(statements);
    },
  };
  const batch = createMessageBatch<ExportMessage>("shiftline-exports", [
    { id: newId(), timestamp: new Date(), attempts: 1, body: { exportId, organizationId } },
  ]);
  const ctx = createExecutionContext();
  await worker.queue(batch as never, { ...env, [shard]: interfering } as Env);
  return getQueueResult(batch, ctx);
}

const rowOf = async (id: string) => (await db.select().from(exports).where(eq(exports.id, id)))[0]!;

/** Delivers the export's message (twice at once when `duplicates`) until the job is over. */
async function work(organizationId: string, id: string, duplicates = false) {
  for (let i = 0; i < 50; i++) {
    const row = await rowOf(id);
    if (row.status === "SUCCEEDED" || row.status === "FAILED") return row;
    await Promise.all(duplicates ? [deliver(organizationId, id), deliver(organizationId, id)] : [deliver(organizationId, id)]);
  }
  throw new Error("the export did not finish");
}

describe("POST /organizations/{org}/exports", () => {
  it("answers 202 with the queued job and its Location; the consumer writes it in chunks; the file is the synchronous export's", async () => {
    const w = await march();
    const res = await create(w, { kind: "TIMESHEETS", format: "csv", startDate: "2026-03-01", endDate: "2026-03-31" });
    expect(res.status).toBe(202);
    expect(res.body).toMatchObject({ kind: "TIMESHEETS", format: "csv", status: "QUEUED", rowsWritten: 0, sha256: null, finishedAt: null });
    expect(res.headers.get("Location")).toBe(exportsPath(w, `/${res.body.id}`));
    const early = await api("GET", exportsPath(w, `/${res.body.id}/download`), { token: w.org.adminToken });
    expect(early.status).toBe(409);
    expect(early.body.code).toBe("EXPORT_NOT_READY");

    const done = await work(w.org.id, res.body.id);
    expect(done.status).toBe("SUCCEEDED");
    expect(done.chunk).toBe(4);
    const job = await api("GET", res.headers.get("Location")!, { token: w.org.adminToken });
    expect(job.body).toMatchObject({ status: "SUCCEEDED", rowsWritten: SHIFTS, error: null });
    const file = await api("GET", exportsPath(w, `/${res.body.id}/download`), { token: w.org.adminToken });
    expect(file.status).toBe(200);
    expect(file.headers.get("Content-Type")).toMatch(/^text\/csv/);
    const sync = await api("GET", "/api/timesheets/export?startDate=2026-03-01&endDate=2026-03-31", { token: w.org.adminToken });
    expect(file.text).toBe(sync.text);
    expect(file.text.split("\r\n")).toHaveLength(SHIFTS + 2);
    const bytes = new TextEncoder().encode(file.text);
    expect(job.body.bytes).toBe(bytes.byteLength);
    expect(job.body.sha256).toBe(await sha256Hex(bytes));

    const feed = await api("GET", `/api/organizations/${w.org.id}/events?types=export.created,export.succeeded`, {
      token: w.org.adminToken,
    });
    expect(feed.body.map((e: { type: string; data: { id: string } }) => [e.type, e.data.id])).toEqual([
      ["export.created", res.body.id],
      ["export.succeeded", res.body.id],
    ]);
    expect(feed.body[1].data).toMatchObject({ status: "SUCCEEDED", rowsWritten: SHIFTS, sha256: job.body.sha256 });
  });

  it("JSON with a staff member filter equals the synchronous JSON export; the same request later gives a new file", async () => {
    const w = await march();
    const body = { kind: "TIMESHEETS", format: "json", startDate: "2026-03-01", endDate: "2026-03-31", employeeId: w.staff.id };
    const first = await create(w, body);
    await work(w.org.id, first.body.id);
    const file = await api("GET", exportsPath(w, `/${first.body.id}/download`), { token: w.org.adminToken });
    const query = `startDate=2026-03-01&endDate=2026-03-31&employeeId=${w.staff.id}&format=json`;
    const sync = await api("GET", `/api/timesheets/export?${query}`, { token: w.org.adminToken });
    expect(file.text).toBe(sync.text);
    expect(file.body).toHaveLength(4);

    await seedShifts(w.org.id, [
      { employeeId: w.staff.id, locationId: w.location.id, roleId: w.roleId, minutes: 60, ...newYork("2026-03-30T09:00:00") },
    ]);
    const again = await create(w, body);
    expect(again.body.id).not.toBe(first.body.id);
    await work(w.org.id, again.body.id);
    const newer = await api("GET", exportsPath(w, `/${again.body.id}/download`), { token: w.org.adminToken });
    expect(newer.body).toHaveLength(5);
    const older = await api("GET", exportsPath(w, `/${first.body.id}/download`), { token: w.org.adminToken });
    expect(older.text).toBe(file.text);
  });

  it("duplicate deliveries of every chunk's message write each row once", async () => {
    const w = await march();
    const res = await create(w, { kind: "TIMESHEETS", format: "csv", startDate: "2026-03-01", endDate: "2026-03-31" });
    const done = await work(w.org.id, res.body.id, true);
    expect(done).toMatchObject({ status: "SUCCEEDED", rowsWritten: SHIFTS, chunk: 4 });
    const file = await api("GET", exportsPath(w, `/${res.body.id}/download`), { token: w.org.adminToken });
    const sync = await api("GET", "/api/timesheets/export?startDate=2026-03-01&endDate=2026-03-31", { token: w.org.adminToken });
    expect(file.text).toBe(sync.text);
    // A message redelivered after the export finished changes nothing.
    await deliver(w.org.id, res.body.id);
    expect(await rowOf(res.body.id)).toEqual(done);
  });

  it("a delivery whose chunk others did meanwhile writes nothing: no row twice, none missing", async () => {
    const w = await march();
    const res = await create(w, { kind: "TIMESHEETS", format: "csv", startDate: "2026-03-01", endDate: "2026-03-31" });
    let ahead: Awaited<ReturnType<typeof rowOf>> | undefined;
    await staleDelivery(w.org.id, res.body.id, async () => {
      await deliver(w.org.id, res.body.id);
      await deliver(w.org.id, res.body.id);
      ahead = await rowOf(res.body.id);
    });
    expect(ahead).toMatchObject({ chunk: 2, rowsWritten: 4 });
    expect(await rowOf(res.body.id)).toEqual(ahead);
    const done = await work(w.org.id, res.body.id);
    expect(done).toMatchObject({ status: "SUCCEEDED", rowsWritten: SHIFTS });
    const file = await api("GET", exportsPath(w, `/${res.body.id}/download`), { token: w.org.adminToken });
    const sync = await api("GET", "/api/timesheets/export?startDate=2026-03-01&endDate=2026-03-31", { token: w.org.adminToken });
    expect(file.text).toBe(sync.text);
  });

  it("PAY_LINES: the lines of GET /timesheets/pay, one record per line with its employee, a chunk per employee", async () => {
    const w = await march();
    const res = await create(w, { kind: "PAY_LINES", format: "json", startDate: "2026-03-01", endDate: "2026-03-31" });
    const done = await work(w.org.id, res.body.id);
    const pay = await api("GET", "/api/timesheets/pay?startDate=2026-03-01&endDate=2026-03-31", { token: w.org.adminToken });
    const expected = pay.body.employees.flatMap(
      (e: { employeeId: string; externalId: string; externalPayrollId: string; currencyCode: string; lines: object[] }) =>
        e.lines.map((line) => ({
          employeeId: e.employeeId,
          externalId: e.externalId,
          externalPayrollId: e.externalPayrollId,
          currencyCode: e.currencyCode,
          ...line,
        })),
    );
    expect(expected.length).toBeGreaterThanOrEqual(SHIFTS);
    const file = await api("GET", exportsPath(w, `/${res.body.id}/download`), { token: w.org.adminToken });
    expect(file.body).toEqual(expected);
    expect(done).toMatchObject({ status: "SUCCEEDED", rowsWritten: expected.length, chunk: 2 });
  });

  it("EVENTS: the feed's events of the range, in sequence order", async () => {
    const w = await createWorkplace();
    const today = new Date().toISOString().slice(0, 10);
    const res = await create(w, { kind: "EVENTS", format: "json", startDate: today, endDate: today });
    const feed = await api("GET", `/api/organizations/${w.org.id}/events?limit=500`, { token: w.org.adminToken });
    await work(w.org.id, res.body.id);
    const file = await api("GET", exportsPath(w, `/${res.body.id}/download`), { token: w.org.adminToken });
    expect(file.body).toEqual(feed.body);
    expect(file.body.length).toBeGreaterThan(2);
  });

  it("a chunk failing on its last delivery marks the export FAILED with export.failed; earlier deliveries are retried", async () => {
    const w = await march();
    const res = await create(w, { kind: "TIMESHEETS", format: "csv", startDate: "2026-03-01", endDate: "2026-03-31" });
    const id = res.body.id;
    await work(w.org.id, id);
    // An upload storage no longer knows: the last chunk's part upload fails (the first three only buffer text).
    await db
      .update(exports)
      .set({ status: "RUNNING", chunk: 0, cursor: null, rowsWritten: 0, parts: [], uploadId: "gone", objectKey: `exports/${id}-again` })
      .where(eq(exports.id, id));
    for (let chunk = 0; chunk < 3; chunk++) expect((await deliver(w.org.id, id)).explicitAcks).toHaveLength(1);
    const retried = await deliver(w.org.id, id, 1);
    expect(retried.retryMessages).toHaveLength(1);
    expect(await rowOf(id)).toMatchObject({ status: "RUNNING", chunk: 3, rowsWritten: 6 });
    await deliver(w.org.id, id, 4);
    const failed = await api("GET", exportsPath(w, `/${id}`), { token: w.org.adminToken });
    expect(failed.body).toMatchObject({ status: "FAILED", error: expect.any(String) });
    expect(failed.body.finishedAt).not.toBeNull();
    const feed = await api("GET", `/api/organizations/${w.org.id}/events?types=export.failed`, { token: w.org.adminToken });
    expect(feed.body).toMatchObject([{ type: "export.failed", data: { id, status: "FAILED" } }]);
    const download = await api("GET", exportsPath(w, `/${id}/download`), { token: w.org.adminToken });
    expect(download.status).toBe(409);
    expect(download.body.code).toBe("EXPORT_NOT_READY");
  });

  it("refuses bad input with 400 naming the field, writing nothing; other organizations' exports are not found", async () => {
    const w = await march();
    expectInvalid(await create(w, { kind: "TIMESHEETS", startDate: "2026-03-10", endDate: "2026-03-01" }), ["endDate"]);
    expectInvalid(await create(w, { kind: "PAYROLL", startDate: "2026-03-01", endDate: "2026-03-02" }), ["kind"]);
    expectInvalid(await create(w, { kind: "EVENTS", startDate: "2026-02-30", endDate: "2026-03-02" }), ["startDate"]);
    expectInvalid(await create(w, { kind: "EVENTS", format: "xml", startDate: "2026-03-01", endDate: "2026-03-02" }), ["format"]);
    const list = await api("GET", exportsPath(w), { token: w.org.adminToken });
    expect(list.body).toEqual([]);

    const ok = await create(w, { kind: "EVENTS", startDate: "2026-03-01", endDate: "2026-03-02" });
    const other = await createWorkplace();
    const foreign = await api("GET", `/api/organizations/${other.org.id}/exports/${ok.body.id}`, { token: other.org.adminToken });
    expect(foreign.status).toBe(404);
    expect(foreign.body.code).toBe("EXPORT_NOT_FOUND");
    const foreignFilter = await create(w, {
      kind: "TIMESHEETS",
      startDate: "2026-03-01",
      endDate: "2026-03-02",
      locationId: other.location.id,
    });
    expect(foreignFilter.status).toBe(404);
    expect(foreignFilter.body.code).toBe("LOCATION_NOT_FOUND");
    const listed = await api("GET", exportsPath(w), { token: w.org.adminToken });
    expect(listed.body.map((e: { id: string }) => e.id)).toEqual([ok.body.id]);
  });
});
