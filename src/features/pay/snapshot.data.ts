import type { payPeriodSnapshots } from "@db/schema";
import { getFile, putFile, type StoredFile } from "@/data/files";
import { newId } from "@/data/ids";

/**
 * A payroll snapshot as stored. Since R2: two immutable objects in FILES written by the close before its D1 batch,
 *   payroll/{organizationId}/{periodStartDate}/v{version}/{closeId}.json — the payroll document as GET …/payroll
 *     answers it: `{"snapshotHash":…,` then the canonical JSON's members (snapshotHash = SHA-256 of that canonical JSON);
 *   the same key ending .csv — its CSV.
 * The row keeps the JSON object's key, size and SHA-256 (R2 checked the CSV's SHA-256 as it received it). closeId
 * makes every attempt's keys its own: a close whose batch fails leaves objects no row names, which neither block
 * its retry nor show; the Cron sweeps them (src/jobs/sweep-files.ts).
 * Before R2 the row held the canonical JSON itself, gzip-compressed and base64-encoded (`snapshot`): still read.
 */
export const PAYROLL_PREFIX = "payroll/";

type SnapshotRow = typeof payPeriodSnapshots.$inferSelect;

/** The payroll document: the canonical JSON with its hash first. */
export const payrollDocument = (canonical: string, hash: string) => `{"snapshotHash":${JSON.stringify(hash)},${canonical.slice(1)}`;

/** The CSV object of a JSON object's key. */
export const csvKeyOf = (jsonKey: string) => jsonKey.replace(/\.json$/, ".csv");

/** Writes a close's objects (never over an existing one): the JSON first, then its CSV. */
export async function putSnapshot(
  files: R2Bucket,
  at: { organizationId: string; periodStartDate: string; version: number },
  document: string,
  csv: string,
): Promise<StoredFile> {
  const key = `${PAYROLL_PREFIX}${at.organizationId}/${at.periodStartDate}/v${at.version}/${newId()}.json`;
  const stored = await putFile(files, key, document, "application/json; charset=utf-8");
  await putFile(files, csvKeyOf(key), csv, "text/csv; charset=utf-8; header=present");
  return stored;
}

const missing = (key: string) => new Error(`The payroll object ${key} named by a committed snapshot is missing from FILES.`);

/** The payroll document of a stored snapshot, as a stream when it is an object. */
export async function snapshotDocument(files: R2Bucket, row: SnapshotRow): Promise<ReadableStream | string> {
  if (row.objectKey === null) return payrollDocument(await unpackSnapshot(row.snapshot ?? ""), row.snapshotHash);
  const object = await getFile(files, row.objectKey);
  if (!object) throw missing(row.objectKey);
  return object.body;
}

/** The CSV object of a stored snapshot (null for a snapshot stored before R2: its CSV is derived). */
export async function snapshotCsv(files: R2Bucket, row: SnapshotRow): Promise<ReadableStream | null> {
  if (row.objectKey === null) return null;
  const key = csvKeyOf(row.objectKey);
  const object = await getFile(files, key);
  if (!object) throw missing(key);
  return object.body;
}

/** The payroll document's text (the previous close's, which a re-close compares against). */
export async function snapshotText(files: R2Bucket, row: SnapshotRow): Promise<string> {
  const document = await snapshotDocument(files, row);
  return typeof document === "string" ? document : new Response(document).text();
}

/** A snapshot stored before R2: the canonical JSON, gzip-compressed and base64-encoded. */
export async function packSnapshot(canonical: string): Promise<string> {
  const stream = new Blob([canonical]).stream().pipeThrough(new CompressionStream("gzip"));
  const bytes = new Uint8Array(await new Response(stream).arrayBuffer());
  let binary = "";
  for (let i = 0; i < bytes.length; i += 0x8000) binary += String.fromCharCode(...bytes.subarray(i, i + 0x8000));
  return btoa(binary);
}

export async function unpackSnapshot(packed: string): Promise<string> {
  const bytes = Uint8Array.from(atob(packed), (char) => char.charCodeAt(0));
  const stream = new Blob([bytes]).stream().pipeThrough(new DecompressionStream("gzip"));
  return new Response(stream).text();
}
