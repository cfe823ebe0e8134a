import type { payPeriodSnapshots } from "@db/schema";
import { getFile } from "@/data/files";
import { newId } from "@/data/ids";
import { canonicalJson } from "@/domain/canonical-json";
import { jsonArrayItems } from "@/domain/json-array-items";
import type { EmployeeTotals } from "@/domain/payroll";

/**
 * A payroll snapshot as stored. Since R2: two immutable objects in FILES written by the close before its D1 batch,
 *   payroll/{organizationId}/{periodStartDate}/v{version}/{closeId}.json — the payroll document as GET …/payroll
 *     answers it: the canonical JSON of the snapshot with its snapshotHash among its members (in key order), where
 *     snapshotHash = SHA-256 of the canonical JSON without it. Objects written before the close streamed its
 *     snapshot have `{"snapshotHash":…,` first instead: the same members, still answered as stored;
 *   the same key ending .csv — its CSV.
 * The row keeps the JSON object's key, size and SHA-256 (R2 checked the CSV's SHA-256 as it received it). closeId
 * makes every attempt's keys its own: a close whose batch fails leaves objects no row names, which neither block
 * its retry nor show; the Cron sweeps them (src/jobs/sweep-files.ts).
 * Before R2 the row held the canonical JSON itself, gzip-compressed and base64-encoded (`snapshot`): still read.
 */
export const PAYROLL_PREFIX = "payroll/";

type SnapshotRow = typeof payPeriodSnapshots.$inferSelect;

/** The payroll document of a snapshot stored in D1 (its canonical JSON): as a close writes it now, hash among the members. */
export const payrollDocument = (canonical: string, hash: string) =>
  canonicalJson({ ...(JSON.parse(canonical) as Record<string, unknown>), snapshotHash: hash });

/** The CSV object of a JSON object's key. */
export const csvKeyOf = (jsonKey: string) => jsonKey.replace(/\.json$/, ".csv");

export const PAYROLL_JSON_TYPE = "application/json; charset=utf-8";
export const PAYROLL_CSV_TYPE = "text/csv; charset=utf-8; header=present";

/** A new close's JSON key (its CSV: csvKeyOf); closeId makes every attempt's keys its own. */
export const snapshotKey = (at: { organizationId: string; periodStartDate: string; version: number }) =>
  `${PAYROLL_PREFIX}${at.organizationId}/${at.periodStartDate}/v${at.version}/${newId()}.json`;

/** What a re-close compares of each employee of the previous snapshot (its adjustments). */
const totalsOf = (e: EmployeeTotals): EmployeeTotals => ({
  employeeId: e.employeeId,
  regularMinutes: e.regularMinutes,
  overtimeMinutes: e.overtimeMinutes,
  doubleTimeMinutes: e.doubleTimeMinutes,
  penaltyHours: e.penaltyHours,
  timeOffHours: e.timeOffHours,
  grossPay: e.grossPay,
  workweeks: e.workweeks,
});

/**
 * Each employee's totals of a stored snapshot, read as a stream one employee at a time (never the whole document:
 * at 10,000 staff it is ≈ 28 MB of JSON); a snapshot stored in D1 before R2 is small and parsed whole.
 */
export async function snapshotTotals(files: R2Bucket, row: SnapshotRow): Promise<EmployeeTotals[]> {
  const document = await snapshotDocument(files, row);
  if (typeof document === "string") return (JSON.parse(document) as { employees: EmployeeTotals[] }).employees.map(totalsOf);
  const totals: EmployeeTotals[] = [];
  for await (const item of jsonArrayItems(document, "employees")) totals.push(totalsOf(JSON.parse(item) as EmployeeTotals));
  return totals;
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

/** The staff members of a stored payroll, one at a time (streamed from its object; a snapshot from before R2 parsed whole). */
export async function* snapshotEmployees<T>(files: R2Bucket, row: SnapshotRow): AsyncGenerator<T> {
  const document = await snapshotDocument(files, row);
  if (typeof document === "string") {
    yield* (JSON.parse(document) as { employees: T[] }).employees;
    return;
  }
  for await (const item of jsonArrayItems(document, "employees")) yield JSON.parse(item) as T;
}
