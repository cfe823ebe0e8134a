import type { ExportPart } from "@db/schema";
import { exports, organizations } from "@db/schema";
import { and, eq, inArray } from "drizzle-orm";
import type { Database } from "@/data/client";
import { shiftedNow } from "@/data/clock";
import { abortUpload, completeUpload, headFile, MIN_PART_BYTES, objectDigest, startUpload, uploadPart } from "@/data/files";
import { newId } from "@/data/ids";
import { eventStatement } from "@/data/outbox/outbox";
import { readChunk } from "./exports.data";
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

/**
 * The export with its organization's clock (a sandbox's runs ahead: data/clock), in the one read: a chunk's stamps are
 * at the organization's time, so a sandbox's stall check (src/jobs/export-resend.ts) measures them by its own clock.
 */
async function readExport(db: Database, exportId: string) {
  const [found] = await db
    .select({ row: exports, offset: organizations.clockOffsetMs })
    .from(exports)
    .leftJoin(organizations, eq(organizations.id, exports.organizationId))
    .where(eq(exports.id, exportId));
  return found ? { row: found.row, now: () => shiftedNow(found.offset ?? 0) } : undefined;
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
 */
export async function runExportChunk(
  db: Database,
  bucket: R2Bucket,
  exportId: string,
  size: number,
  partBytes = MIN_PART_BYTES,
): Promise<"more" | "done"> {
  const found = await readExport(db, exportId);
  if (!found) return "done";
  const { row, now: clock } = found;
  if (row.status !== "QUEUED" && row.status !== "RUNNING") return "done";
  const chunk = await readChunk(db, row, size);
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
      pendingKey = `${row.objectKey}.pending/${row.chunk + 1}-${newId()}`;
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
    const now = clock();
    const [result] = await db.batch([
      db
        .update(exports)
        .set({ ...progress, status: "RUNNING", updatedAt: now })
        .where(unchanged(row)),
    ]);
    const moved = result.meta.changes > 0;
    // The tail this chunk replaced, or its own when another delivery did the chunk.
    const stale = moved ? row.pendingKey : pendingKey;
    if (stale) await bucket.delete(stale);
    return moved ? "more" : "done";
  }

  if (!finished) await completeUpload(bucket, row.objectKey, uploadId, parts);
  const digest = await objectDigest(bucket, row.objectKey);
  if (!digest) throw new Error(`The export's object ${row.objectKey} is missing after its upload completed.`);
  const now = clock();
  const done = { ...progress, status: "SUCCEEDED" as const, bytes: digest.size, sha256: digest.sha256, finishedAt: now, updatedAt: now };
  await db.batch([
    db.update(exports).set(done).where(unchanged(row)),
    eventStatement(db, {
      type: "export.succeeded",
      organizationId: row.organizationId,
      occurredAt: now,
      data: serializeExport({ ...row, ...done }),
      whenChanged: true,
    }),
  ]);
  return "done";
}

/** The last delivery of a failing chunk: FAILED with its error and `export.failed`, the upload aborted. */
export async function failExport(db: Database, bucket: R2Bucket, exportId: string, error: unknown) {
  const found = await readExport(db, exportId);
  if (!found) return;
  const { row } = found;
  if (row.status !== "QUEUED" && row.status !== "RUNNING") return;
  const now = found.now();
  const message = (error instanceof Error ? error.message : String(error)).slice(0, 500);
  const failed = { status: "FAILED" as const, error: message, finishedAt: now, updatedAt: now };
  await db.batch([
    db.update(exports).set(failed).where(unchanged(row)),
    eventStatement(db, {
      type: "export.failed",
      organizationId: row.organizationId,
      occurredAt: now,
      data: serializeExport({ ...row, ...failed }),
      whenChanged: true,
    }),
  ]);
  if (row.uploadId) await abortUpload(bucket, row.objectKey, row.uploadId).catch(() => undefined);
  if (row.pendingKey) await bucket.delete(row.pendingKey);
}

/** Rows per chunk: EXPORT_CHUNK_ROWS, else the default. */
export const chunkRows = (env: { EXPORT_CHUNK_ROWS?: string }) => {
  const value = Number(env.EXPORT_CHUNK_ROWS);
  return Number.isInteger(value) && value > 0 ? value : DEFAULT_CHUNK_ROWS;
};
