import type { ExportPart } from "@db/schema";
import { exports, jobs, organizations } from "@db/schema";
import { and, eq, inArray } from "drizzle-orm";
import type { Database } from "@/data/client";
import { shiftedNow } from "@/data/clock";
import {
  abortUpload,
  completeUpload,
  deleteFilesUnder,
  headFile,
  MIN_PART_BYTES,
  objectDigest,
  startUpload,
  uploadPart,
} from "@/data/files";
import { newId } from "@/data/ids";
import { finishJob, recordStep } from "@/data/jobs/jobs.data";
import { eventStatement } from "@/data/outbox/outbox";
import type { JobRow } from "@/wire/job.schemas";
import { plannedChunks, readChunk } from "./exports.data";
import { type ExportRow, serializeExport } from "./exports.schemas";

/** A message of the exports queue: work the export's next chunk. */
export interface ExportMessage {
  exportId: string;
  organizationId: string;
}

/** Deliveries of a message before its chunk is given up (1 + the queue's max_retries in wrangler.toml). */
export const EXPORT_ATTEMPTS = 4;
export const DEFAULT_CHUNK_ROWS = 2000;

const encoder = new TextEncoder();
const contentType = (row: ExportRow) => (row.format === "csv" ? "text/csv; charset=utf-8" : "application/json; charset=utf-8");

/** The chunk this message may write: the row's, while the export runs (a redelivery after it moved on is a no-op). */
const unchanged = (row: ExportRow) =>
  and(eq(exports.id, row.id), eq(exports.chunk, row.chunk), inArray(exports.status, ["QUEUED", "RUNNING"]));

/** Where a chunk's text waits for the next one: objects under this prefix (one per chunk, a crashed delivery's too). */
const pendingPrefix = (row: ExportRow) => `${row.objectKey}.pending/`;

/** A step's name on the export's job: `chunk-n`, the n-th chunk (the last also completes the file). */
export const chunkStep = (n: number) => `chunk-${n}`;

/**
 * Tests only: called with the step's name after its R2 writes and before its batch (`write`), and after its batch
 * (`commit`); a throw there is a Worker dying at that point (src/jobs/export-queue.ts injects them).
 */
export type ChunkFault = (step: string, at: "write" | "commit") => void;

/**
 * The export with its job (the jobs row of the same id, none for an export created before exports were jobs) and its
 * organization's clock (a sandbox's runs ahead: data/clock), in the one read: a chunk's stamps are at the
 * organization's time, so a sandbox's stall check (src/jobs/export-resend.ts) measures them by its own clock.
 */
async function readExport(db: Database, exportId: string) {
  const [found] = await db
    .select({ row: exports, job: jobs, offset: organizations.clockOffsetMs })
    .from(exports)
    .leftJoin(organizations, eq(organizations.id, exports.organizationId))
    .leftJoin(jobs, and(eq(jobs.id, exports.id), eq(jobs.organizationId, exports.organizationId)))
    .where(eq(exports.id, exportId));
  return found ? { row: found.row, job: found.job as JobRow | null, now: () => shiftedNow(found.offset ?? 0) } : undefined;
}

/**
 * Works the next chunk of an export; "more" when another chunk follows (the caller sends the next message).
 *
 * Design (resumable, no duplicate or missing rows): the export row is the whole state. A chunk reads the rows after
 * `cursor`, appends their text to the pending tail (an R2 object named in `pendingKey`, text not yet uploaded), and
 * uploads as many whole parts of `partBytes` (R2's 5 MiB minimum by default; R2 wants every part but the last of one
 * size) as the text holds, then writes the rest, the new tail, to a fresh R2 object; the last chunk uploads its rest
 * as the last part. Then ONE conditional UPDATE, guarded by the chunk number it read,
 * moves cursor, parts, pendingKey and rowsWritten together. A delivery that crashed before that UPDATE left only
 * unreferenced R2 objects: its redelivery redoes the same chunk from the same cursor. A delivery whose chunk was done
 * by another changes nothing (its UPDATE matches no row) and sends no next message. The last chunk completes the
 * object (once: a redelivery finding the object there skips to the UPDATE), reads back its size and SHA-256, and
 * records SUCCEEDED with `export.succeeded` in the same batch.
 *
 * The export's job (GET …/jobs/{id}, the export's id) moves in the same batches: each chunk records its step
 * (`chunk-n`, its progress against the chunks planned from a count at the first chunk); the last chunk ends it
 * SUCCEEDED with `job.succeeded`. The pending tails of deliveries that died before their batch are deleted with the
 * last chunk (all under the export's pending prefix), so a finished export leaves only its file.
 */
export async function runExportChunk(
  db: Database,
  bucket: R2Bucket,
  exportId: string,
  size: number,
  partBytes = MIN_PART_BYTES,
  fault?: ChunkFault,
): Promise<"more" | "done"> {
  const found = await readExport(db, exportId);
  if (!found) return "done";
  const { row, job, now: clock } = found;
  if (row.status !== "QUEUED" && row.status !== "RUNNING") return "done";
  const step = chunkStep(row.chunk + 1);
  const [chunk, planned] = await Promise.all([
    readChunk(db, row, size),
    job && row.chunk === 0 ? plannedChunks(db, row, size) : Promise.resolve(job?.steps ?? 1),
  ]);
  const text = encoder.encode(chunk.text);
  const pendingObject = row.pendingKey ? await bucket.get(row.pendingKey) : null;
  if (row.pendingKey && !pendingObject) throw new Error(`The export's pending text ${row.pendingKey} is missing from storage.`);
  const pending = pendingObject ? new Uint8Array(await pendingObject.arrayBuffer()) : new Uint8Array();
  const buffered = new Uint8Array(pending.byteLength + text.byteLength);
  buffered.set(pending);
  buffered.set(text, pending.byteLength);

  const finished = chunk.last && (await headFile(bucket, row.objectKey)) !== null;
  const uploadId = row.uploadId ?? (await startUpload(bucket, row.objectKey, contentType(row)));
  const parts: ExportPart[] = [...row.parts];
  let pendingKey: string | null = null;
  if (!finished) {
    // Whole parts of partBytes; the last chunk's rest is the last part, any other chunk's the new pending tail.
    let offset = 0;
    while (buffered.byteLength - offset >= partBytes || (chunk.last && offset < buffered.byteLength)) {
      const body = buffered.subarray(offset, Math.min(offset + partBytes, buffered.byteLength));
      parts.push(await uploadPart(bucket, row.objectKey, uploadId, parts.length + 1, body));
      offset += body.byteLength;
    }
    if (!chunk.last && offset < buffered.byteLength) {
      pendingKey = `${pendingPrefix(row)}${row.chunk + 1}-${newId()}`;
      await bucket.put(pendingKey, buffered.subarray(offset));
    }
  }
  const progress = {
    chunk: row.chunk + 1,
    cursor: chunk.cursor,
    uploadId,
    parts,
    pendingKey,
    rowsWritten: row.rowsWritten + chunk.rows,
    bytes: row.bytes + text.byteLength,
  };

  if (!chunk.last) {
    fault?.(step, "write");
    const now = clock();
    const n = row.chunk + 1;
    // The chunks planned, and at least one more than this (a count taken while rows were added may fall short).
    const steps = Math.max(planned, n + 1);
    const [result] = await db.batch([
      db
        .update(exports)
        .set({ ...progress, status: "RUNNING", updatedAt: now })
        .where(unchanged(row)),
      ...(job ? [recordStep(db, job.id, { name: step, index: n, steps, progress: n / steps, at: now })] : []),
    ]);
    const moved = result.meta.changes > 0;
    // The tail this chunk replaced, or its own when another delivery did the chunk.
    const stale = moved ? row.pendingKey : pendingKey;
    if (stale) await bucket.delete(stale);
    fault?.(step, "commit");
    return moved ? "more" : "done";
  }

  if (!finished) await completeUpload(bucket, row.objectKey, uploadId, parts);
  const digest = await objectDigest(bucket, row.objectKey);
  if (!digest) throw new Error(`The export's object ${row.objectKey} is missing after its upload completed.`);
  fault?.(step, "write");
  const now = clock();
  const done = { ...progress, status: "SUCCEEDED" as const, bytes: digest.size, sha256: digest.sha256, finishedAt: now, updatedAt: now };
  const [result] = await db.batch([
    db.update(exports).set(done).where(unchanged(row)),
    eventStatement(db, {
      type: "export.succeeded",
      organizationId: row.organizationId,
      occurredAt: now,
      data: serializeExport({ ...row, ...done }),
      whenChanged: true,
    }),
    ...(job ? finishJob(db, job, { status: "SUCCEEDED", step, at: now }) : []),
  ]);
  // Tails of deliveries that died before their batch: nothing names them any more (swept by the delivery that ended it).
  if (result.meta.changes > 0) await deleteFilesUnder(bucket, pendingPrefix(row));
  fault?.(step, "commit");
  return "done";
}

/**
 * The last delivery of a failing chunk: FAILED with its error and `export.failed`, its job FAILED (`job.failed`,
 * JOB_FAILED) in the same batch; then nothing of it is left in R2: the upload aborted, every pending tail deleted, and
 * the file itself when the last chunk completed it before dying.
 */
export async function failExport(db: Database, bucket: R2Bucket, exportId: string, error: unknown) {
  const found = await readExport(db, exportId);
  if (!found) return;
  const { row, job } = found;
  if (row.status !== "QUEUED" && row.status !== "RUNNING") return;
  const now = found.now();
  const message = (error instanceof Error ? error.message : String(error)).slice(0, 500);
  const failed = { status: "FAILED" as const, error: message, finishedAt: now, updatedAt: now };
  const step = chunkStep(row.chunk + 1);
  const [result] = await db.batch([
    db.update(exports).set(failed).where(unchanged(row)),
    eventStatement(db, {
      type: "export.failed",
      organizationId: row.organizationId,
      occurredAt: now,
      data: serializeExport({ ...row, ...failed }),
      whenChanged: true,
    }),
    ...(job ? finishJob(db, job, { status: "FAILED", step, at: now, error: { code: "JOB_FAILED", detail: message } }) : []),
  ]);
  // Another delivery moved the export on meanwhile: it is not failed, and its objects are its own.
  if (result.meta.changes === 0) return;
  if (row.uploadId) await abortUpload(bucket, row.objectKey, row.uploadId).catch(() => undefined);
  await deleteFilesUnder(bucket, pendingPrefix(row));
  await bucket.delete(row.objectKey);
}

/** Rows per chunk: EXPORT_CHUNK_ROWS, else the default. */
export const chunkRows = (env: { EXPORT_CHUNK_ROWS?: string }) => {
  const value = Number(env.EXPORT_CHUNK_ROWS);
  return Number.isInteger(value) && value > 0 ? value : DEFAULT_CHUNK_ROWS;
};
