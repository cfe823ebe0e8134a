import { createExecutionContext, env, introspectWorkflow, waitOnExecutionContext } from "cloudflare:test";
import { describe, expect, it } from "vitest";
import { sha256Hex } from "@/data/files";
import { shardBinding } from "@/data/shards";
import { canonicalJson } from "@/domain/canonical-json";
import { parseCsv } from "@/domain/csv";
import worker from "@/worker";
import { api } from "../../helpers/api";
import { copyId, copyRows } from "../../helpers/copy-rows";
import { PERIOD, payLines, periodsPath, reopenPeriod, WEEK, workDay } from "../../helpers/pay";
import { shardOf } from "../../helpers/shards";
import { createStaffMember } from "../../helpers/staff";
import { createWorkplace, type Workplace } from "../../helpers/workplace";

/**
 * The close in parts (src/features/pay/pay-period-close.data.ts, src/data/files.ts FileWriter): the Worker's fetch
 * with an environment of its own, so that a small organization is computed one employee a page. Parts are R2's
 * minimum, 5 MiB (the local R2 enforces it, and that all parts but the last are the same size): the multipart test
 * closes an organization of 3,500 staff with long names, whose JSON and CSV are over 5 MiB each.
 */
const PARTS = { PAYROLL_PAGE_EMPLOYEES: "1" };
const BIG = { PAYROLL_PAGE_EMPLOYEES: "500" };
const MIB = 1024 * 1024;

/** What a test's FILES binding did: the multipart uploads started, their parts, completions and aborts. */
interface Recorded {
  /** Keys of single puts. */
  puts: string[];
  started: string[];
  parts: number;
  completed: string[];
  aborted: string[];
}

/** FILES, recording its multipart uploads; `failAtPart` makes that upload of a part (counting all) fail. */
function recordingFiles(failAtPart?: number) {
  const recorded: Recorded = { puts: [], started: [], parts: 0, completed: [], aborted: [] };
  const files = env.FILES;
  const wrap = (upload: R2MultipartUpload): R2MultipartUpload => ({
    key: upload.key,
    uploadId: upload.uploadId,
    uploadPart: async (number: number, value: Parameters<R2MultipartUpload["uploadPart"]>[1]) => {
      recorded.parts++;
      if (recorded.parts === failAtPart) throw new Error("injected R2 failure");
      return upload.uploadPart(number, value);
    },
    complete: async (parts: R2UploadedPart[]) => {
      recorded.completed.push(upload.key);
      return upload.complete(parts);
    },
    abort: async () => {
      recorded.aborted.push(upload.key);
      return upload.abort();
    },
  });
  const proxy = new Proxy(files, {
    get(target, property) {
      if (property === "createMultipartUpload") {
        return async (key: string, options?: R2MultipartOptions) => {
          recorded.started.push(key);
          return wrap(await target.createMultipartUpload(key, options));
        };
      }
      if (property === "put") {
        return (key: string, ...rest: unknown[]) => {
          recorded.puts.push(key);
          return (target.put as (...args: unknown[]) => unknown)(key, ...rest);
        };
      }
      const value = Reflect.get(target, property);
      return typeof value === "function" ? value.bind(target) : value;
    },
  });
  return { files: proxy, recorded };
}

/** A close through the Worker's fetch with the close configured in parts (and FILES as given). */
async function closeInParts(w: Workplace, files: R2Bucket = env.FILES, options: Record<string, string> = PARTS) {
  const request = new Request(`http://shiftline.test${periodsPath(w.org)}/${PERIOD}/close`, {
    method: "POST",
    headers: { Authorization: `Bearer ${w.org.adminToken}`, "Content-Type": "application/json" },
    body: JSON.stringify({ approveAll: true }),
  });
  const ctx = createExecutionContext();
  const response = await worker.fetch(request as never, { ...env, ...options, FILES: files } as Env, ctx);
  await waitOnExecutionContext(ctx);
  const text = await response.text();
  return { status: response.status, body: JSON.parse(text) };
}

const payroll = (w: Workplace, query = "") => api("GET", `${periodsPath(w.org)}/${PERIOD}/payroll${query}`, { token: w.org.adminToken });

async function snapshotRows(w: Workplace) {
  const db = shardBinding(env, await shardOf(w.org.id));
  const { results } = await db
    .prepare("SELECT * FROM pay_period_snapshots WHERE organization_id = ? ORDER BY version")
    .bind(w.org.id)
    .all<{ version: number; object_key: string; object_size: number; object_sha256: string }>();
  return results;
}

const objectsOf = async (w: Workplace) => (await env.FILES.list({ prefix: `payroll/${w.org.id}/` })).objects.map((o) => o.key).sort();
const bytesOf = async (key: string) => new Uint8Array(await (await env.FILES.get(key))!.arrayBuffer());

/** Four staff members who worked two days each of WEEK. */
async function crew() {
  const w = await createWorkplace();
  const others = [];
  for (let i = 0; i < 3; i++) others.push(await createStaffMember(w.org, { locationIds: [w.location.id], name: `Crew "${i}", Ü` }));
  for (const [i, staff] of [w.staff, ...others].entries()) {
    await workDay({ ...w, staff }, WEEK[i]!, 8 + i);
    await workDay({ ...w, staff }, WEEK[i + 1]!, 10);
  }
  return w;
}

const CROWD = 3_500;

/** CROWD staff members of 1,500-character names who worked 8 hours on Monday: JSON and CSV over 5 MiB each. */
async function crowd() {
  const w = await createWorkplace();
  const shift = await workDay(w, WEEK[0], 8);
  const db = shardBinding(env, await shardOf(w.org.id));
  await copyRows(db, "staff_members", w.staff.id, CROWD - 1, {
    id: copyId(w.staff.id),
    external_id: "NULL",
    name: `'${"N".repeat(1500)}' || n.i`,
  });
  await copyRows(db, "shifts", shift.id, CROWD - 1, { id: copyId(shift.id), employee_id: copyId(w.staff.id) });
  return w;
}

/** The payroll's document checks: canonical, its hash verifies, its bytes are the object's whose size and SHA-256 D1 keeps. */
async function expectStoredDocument(w: Workplace, version: number) {
  const json = await payroll(w);
  expect(json.status).toBe(200);
  const row = (await snapshotRows(w)).find((r) => r.version === version)!;
  const bytes = await bytesOf(row.object_key);
  expect(json.text).toBe(new TextDecoder().decode(bytes));
  expect(Number(json.headers.get("Content-Length"))).toBe(bytes.byteLength);
  expect(row.object_size).toBe(bytes.byteLength);
  expect(row.object_sha256).toBe(await sha256Hex(bytes));
  expect(json.text).toBe(canonicalJson(json.body));
  const { snapshotHash, ...document } = json.body;
  expect(await sha256Hex(new TextEncoder().encode(canonicalJson(document)))).toBe(snapshotHash);
  return { json, row, bytes };
}

describe("the close in parts", () => {
  it("computes a page of employees at a time: the payroll of GET /timesheets/pay, canonical, its hash and the object's SHA-256 verify", async () => {
    const w = await crew();
    const closed = await closeInParts(w);
    expect(closed.status).toBe(200);
    expect(closed.body).toMatchObject({ status: "CLOSED", version: 1, employeeCount: 4, approvedCount: 4 });
    const { json, row } = await expectStoredDocument(w, 1);
    expect(json.body.snapshotHash).toBe(closed.body.snapshotHash);
    const csvKey = row.object_key.replace(/\.json$/, ".csv");
    expect(await objectsOf(w)).toEqual([csvKey, row.object_key].sort());

    // The pages compute what GET /timesheets/pay computes for everyone at once.
    const lines = await payLines(w, { startDate: WEEK[0], endDate: WEEK[6], limit: "500" });
    expect(json.body.employees.map(({ name: _, ...e }: { name: string }) => e)).toEqual(lines.body.employees);
    expect(json.body.totals).toEqual(lines.body.totals);
    expect(json.body.adjustments).toEqual([]);

    const csv = await payroll(w, "?format=csv");
    expect(csv.text).toBe(new TextDecoder().decode(await bytesOf(csvKey)));
    const [header, ...rows] = parseCsv(csv.text);
    expect(header![0]).toBe("employeeId");
    expect(rows.map((r) => r[0])).toEqual(json.body.employees.map((e: { employeeId: string }) => e.employeeId));
    expect(rows.map((r) => r[3])).toContain('Crew "1", Ü');
  });

  it("a re-close stages the employees (its adjustments come first), then copies them in; v1 stays and the staging object is gone", async () => {
    const w = await crew();
    expect((await closeInParts(w)).status).toBe(200);
    const [v1] = await snapshotRows(w);
    const v1Bytes = await bytesOf(v1!.object_key);
    expect((await reopenPeriod(w, PERIOD)).status).toBe(200);
    const newcomer = await createStaffMember(w.org, { locationIds: [w.location.id] });
    await workDay({ ...w, staff: newcomer }, WEEK[5], 3);
    const { files, recorded } = recordingFiles();
    const second = await closeInParts(w, files);
    expect(second.status).toBe(200);
    expect(second.body).toMatchObject({ version: 2, employeeCount: 5 });
    const { json, row } = await expectStoredDocument(w, 2);
    // The employees staged in an object of their own, written before the document and its CSV.
    expect(recorded.puts).toEqual([`${row.object_key}.employees`, row.object_key, row.object_key.replace(/\.json$/, ".csv")]);
    expect(json.body.adjustments.map((a: { employeeId: string }) => a.employeeId)).toEqual([newcomer.id]);
    expect(json.body.adjustments.find((a: { employeeId: string }) => a.employeeId === newcomer.id)).toMatchObject({
      regularMinutes: 180,
      grossPay: 60,
    });
    expect(json.body.employees).toHaveLength(5);
    // v1 as it was; v2's two objects; no staging object left.
    expect(await bytesOf(v1!.object_key)).toEqual(v1Bytes);
    expect(await objectsOf(w)).toHaveLength(4);
    expect((await objectsOf(w)).some((key) => key.endsWith(".employees"))).toBe(false);
  });

  it("a large payroll is written in 5 MiB parts; a close failing half-way aborts its uploads and leaves nothing; its retry closes", async () => {
    const w = await crowd();
    // The second part uploaded fails: the first is up already.
    const failing = recordingFiles(2);
    const failed = await closeInParts(w, failing.files, BIG);
    expect(failed.status).toBe(500);
    expect(failing.recorded.parts).toBe(2);
    expect(failing.recorded.started.length).toBeGreaterThan(0);
    expect(failing.recorded.completed).toEqual([]);
    expect(failing.recorded.aborted.sort()).toEqual([...failing.recorded.started].sort());
    expect(await objectsOf(w)).toEqual([]);
    expect(await snapshotRows(w)).toEqual([]);
    expect((await payroll(w)).body).toMatchObject({ code: "PAY_PERIOD_OPEN" });
    const period = await api("GET", `${periodsPath(w.org)}/${PERIOD}`, { token: w.org.adminToken });
    expect(period.body).toMatchObject({ status: "OPEN", version: 0, approvedCount: 0 });
    const db = shardBinding(env, await shardOf(w.org.id));
    const events = await db
      .prepare("SELECT count(*) AS n FROM events WHERE organization_id = ? AND type IN ('pay_period.closed', 'timesheet.approved')")
      .bind(w.org.id)
      .first<{ n: number }>();
    expect(events!.n).toBe(0);

    // The retry: both objects multipart, 5 MiB parts but the last, completed once each.
    const { files, recorded } = recordingFiles();
    const closed = await closeInParts(w, files, BIG);
    expect(closed.status).toBe(200);
    expect(closed.body).toMatchObject({ status: "CLOSED", employeeCount: CROWD });
    const { json, row, bytes } = await expectStoredDocument(w, 1);
    const csvKey = row.object_key.replace(/\.json$/, ".csv");
    expect(recorded.started.sort()).toEqual([csvKey, row.object_key].sort());
    expect(recorded.completed.sort()).toEqual([csvKey, row.object_key].sort());
    expect(recorded.aborted).toEqual([]);
    const csvBytes = await bytesOf(csvKey);
    expect(csvBytes.byteLength).toBeGreaterThan(5 * MIB);
    expect(recorded.parts).toBe(Math.ceil(bytes.byteLength / (5 * MIB)) + Math.ceil(csvBytes.byteLength / (5 * MIB)));
    // A multipart object has no SHA-256 of R2's own: D1's is the close's, computed as the bytes passed.
    expect((await env.FILES.head(row.object_key))!.checksums.sha256).toBeUndefined();
    expect(json.body.employees).toHaveLength(CROWD);
    expect(json.body.totals.regularMinutes).toBe(CROWD * 8 * 60);
    const csv = await payroll(w, "?format=csv");
    expect(csv.text).toBe(new TextDecoder().decode(csvBytes));
    expect(parseCsv(csv.text)).toHaveLength(CROWD + 1);
    expect(await objectsOf(w)).toEqual([csvKey, row.object_key].sort());

    // The same period closed as a job (the rows reset, version 1 again), 500 staff a page step and each staged part
    // its own assemble step: the 5 MiB parts of both uploads span assemble steps, and every assemble step fails once
    // after its work. The document is the in-request one's but for closedAt; its hashes verify against its bytes.
    const expectedCsv = csv.text;
    const { closedAt: _, snapshotHash: __, ...expected } = json.body;
    await db.batch(
      ["pay_period_snapshots", "pay_rule_set_uses", "pay_periods"].map((table) =>
        db.prepare(`DELETE FROM ${table} WHERE organization_id = ?`).bind(w.org.id),
      ),
    );
    await using workflows = await introspectWorkflow(env.PAY_CLOSE_WORKFLOW);
    await workflows.modifyAll(async (m) => {
      await m.disableRetryDelays();
    });
    const started = await closeInParts(w, env.FILES, {
      ...BIG,
      CLOSE_IN_REQUEST_MAX_EMPLOYEES: "0",
      CLOSE_JOB_PAGES_PER_STEP: "1",
      CLOSE_JOB_ASSEMBLE_BYTES: "1",
      JOB_FAULT_STEPS: "assemble-*",
      JOB_FAULT_TIMES: "1",
    });
    expect(started.status).toBe(202);
    const [instance] = await workflows.get();
    await instance!.waitForStatus("complete");
    const job = await api("GET", `/api/organizations/${w.org.id}/jobs/${started.body.id}`, { token: w.org.adminToken });
    // plan, 7 page steps, 7 assemble steps, commit.
    expect(job.body).toMatchObject({ status: "SUCCEEDED", steps: 16 });
    const again = await expectStoredDocument(w, 1);
    expect(again.row.object_key).toContain(started.body.id);
    const { closedAt: ___, snapshotHash: ____, ...got } = again.json.body;
    expect(canonicalJson(got)).toBe(canonicalJson(expected));
    expect((await env.FILES.head(again.row.object_key))!.checksums.sha256).toBeUndefined();
    expect((await payroll(w, "?format=csv")).text).toBe(expectedCsv);
    expect((await env.FILES.list({ prefix: `jobs/${started.body.id}/` })).objects).toEqual([]);
  }, 300_000);
});
