import { CarriedFileWriter, type CarriedUpload, getFile, startUpload } from "@/data/files";
import { recordStep } from "@/data/jobs/jobs.data";
import { closeInputStatements, closeInputsOf } from "@/data/pay/pay-inputs.data";
import { csvHeader } from "@/domain/csv";
import { type PayTotalsSumState, startPayTotalsSum } from "@/domain/pay-lines";
import { PAYROLL_COLUMNS, payrollAdjustments } from "@/domain/payroll";
import { ResumableSha256, type Sha256State } from "@/domain/sha256";
import {
  type CloseJobParams,
  checkSpan,
  forEachStagedTotals,
  jobSnapshotKey,
  nowOf,
  type Planned,
  type StagedPart,
  type StepContext,
  stagedKey,
  stagedTotals,
  uploadsKey,
} from "./pay-close-job.data";
import {
  type ClosedObjects,
  committedSnapshot,
  copyObject,
  encoder,
  snapshotHead,
  snapshotRest,
  snapshotTail,
} from "./pay-period-close.data";
import { actorOf } from "./pay-periods.data";
import { csvKeyOf, PAYROLL_CSV_TYPE, PAYROLL_JSON_TYPE, snapshotTotals } from "./snapshot.data";

/**
 * Steps `assemble-1` … `assemble-k` of the close job: the payroll objects from the staged parts, a few megabytes of
 * them a step (assembleBytes), so that no step's CPU or heap grows with the organization. The same bytes as
 * writeSnapshot (snapshotHead, the employees, snapshotTail) into two multipart uploads started by `assemble-1` and
 * completed by the last step; what one step hands the next is its step result (AssembleState): the uploads' parts, the
 * SHA-256 of the document so far (a ResumableSha256's state: WebCrypto cannot carry one across invocations) and the
 * running totals — plus each upload's unfinished part (under 5 MiB), put in R2 by the step (`jobs/{jobId}/assemble-k.…`)
 * rather than carried in its result. A step run again writes the same part numbers with the same bytes.
 */

/** What an assemble step hands the next (a Workflow step's result: JSON-safe, a few kB). */
export interface AssembleState {
  json: CarriedUpload;
  csv: CarriedUpload;
  /** SHA-256 of the document's bytes so far: the canonical JSON's too, which differs only after the employees. */
  hash: Sha256State;
  sum: PayTotalsSumState;
  /** Whether an employee's JSON was written (the next one follows a comma). */
  wrote: boolean;
}

export type Assembled = { done: false; state: AssembleState } | { done: true; closed: ClosedObjects };

/** The staged parts of each assemble step (indexes into `parts`): in order, at most maxBytes a step but one part at least. */
export function assembleGroups(parts: readonly StagedPart[], maxBytes: number): { from: number; to: number }[] {
  const groups: { from: number; to: number }[] = [];
  let bytes = 0;
  parts.forEach((part, i) => {
    const last = groups.at(-1);
    if (last && bytes + (part.bytes ?? 0) <= maxBytes) {
      last.to = i + 1;
      bytes += part.bytes ?? 0;
    } else {
      groups.push({ from: i, to: i + 1 });
      bytes = part.bytes ?? 0;
    }
  });
  return groups.length ? groups : [{ from: 0, to: 0 }];
}

const restKey = (jobId: string, k: number, what: "json" | "csv") => `jobs/${jobId}/assemble-${k}.${what}`;

/** The two uploads of the job's payroll objects: started once, recorded (a redelivered `assemble-1` takes them up again). */
async function openUploads(files: R2Bucket, jobId: string, key: string): Promise<[CarriedUpload, CarriedUpload]> {
  const recorded = await getFile(files, uploadsKey(jobId));
  const uploads: { key: string; uploadId: string }[] = recorded
    ? await recorded.json()
    : [
        { key, uploadId: await startUpload(files, key, PAYROLL_JSON_TYPE) },
        { key: csvKeyOf(key), uploadId: await startUpload(files, csvKeyOf(key), PAYROLL_CSV_TYPE) },
      ];
  if (!recorded) await files.put(uploadsKey(jobId), JSON.stringify(uploads));
  const [json, csv] = uploads.map((u) => ({ ...u, parts: [], size: 0 }));
  return [json!, csv!];
}

/**
 * Step `assemble-k` (k from 1): the k-th group of staged parts copied into the uploads (the first step writes the head
 * first — a re-close's adjustments, from the previous snapshot's totals and every staged part's — and the CSV header;
 * the last, the tail with snapshotHash, and completes both objects). Writes no row but the job's progress.
 */
export async function assembleStep(
  c: StepContext,
  p: CloseJobParams,
  plan: Extract<Planned, { ok: true }>,
  parts: readonly StagedPart[],
  k: number,
  carried: AssembleState | null,
): Promise<Assembled> {
  const { db } = c.writer;
  const { span, filter } = await checkSpan(c, p);
  const groups = assembleGroups(parts, p.assembleBytes);
  const group = groups[k - 1];
  if (!group || k > 1 !== (carried !== null)) throw new Error(`The close job ${p.jobId} has no assemble step ${k} as asked.`);
  const last = k === groups.length;
  const key = jobSnapshotKey(p, span.startDate, plan.version);
  const [jsonUpload, csvUpload] = carried ? [carried.json, carried.csv] : await openUploads(c.files, p.jobId, key);
  const open = (upload: CarriedUpload, what: "json" | "csv", contentType: string) =>
    CarriedFileWriter.open(c.files, upload, {
      contentType,
      partBytes: p.partBytes,
      restFrom: k > 1 ? restKey(p.jobId, k - 1, what) : null,
      last,
    });
  const json = await open(jsonUpload, "json", PAYROLL_JSON_TYPE);
  const csv = await open(csvUpload, "csv", PAYROLL_CSV_TYPE);
  const hash = new ResumableSha256(carried?.hash);
  const document = async (bytes: Uint8Array) => {
    hash.update(bytes);
    await json.write(bytes);
  };
  if (!carried) {
    const latest = await committedSnapshot(db, p.organizationId, span.startDate);
    const previous = latest && latest.version === plan.version - 1 ? await snapshotTotals(c.files, latest) : null;
    const adjustments = previous ? payrollAdjustments(previous, await stagedTotals(c.files, p.jobId, parts)) : [];
    await document(snapshotHead(adjustments, new Date(p.requestedAt), actorOf(p.principal)));
    await csv.write(csvHeader(PAYROLL_COLUMNS));
  }
  const mine = parts.slice(group.from, group.to);
  const sum = startPayTotalsSum(carried?.sum);
  await forEachStagedTotals(c.files, p.jobId, mine, (t) => sum.add(t));
  let wrote = carried?.wrote ?? false;
  for (const part of mine) {
    if (part.employees === 0) continue;
    if (wrote) await document(encoder.encode(","));
    wrote = true;
    await copyObject(c.files, stagedKey(p.jobId, part.n, "json"), document);
    await copyObject(c.files, stagedKey(p.jobId, part.n, "csv"), (bytes) => csv.write(bytes));
  }
  const steps = parts.length + groups.length + 2;
  // plan, the page steps, the assemble steps, commit: the count the plan estimated, now known.
  const progressed = async () =>
    recordStep(db, p.jobId, {
      name: `assemble-${k}`,
      index: parts.length + 1 + k,
      steps,
      progress: (parts.length + 1 + k) / steps,
      at: await nowOf(c, p),
    });
  if (!last) {
    const state = {
      json: await json.pause(restKey(p.jobId, k, "json")),
      csv: await csv.pause(restKey(p.jobId, k, "csv")),
      hash: hash.state(),
      sum: sum.state(),
      wrote,
    };
    await progressed();
    return { done: false, state };
  }
  // The rule sets only: the commit's batch guards on the plan's fingerprint, rule sets included.
  const [sets, organization] = await db.batch([...closeInputStatements(db, filter, { fingerprint: false })]);
  let weeksFrom = span.startDate;
  let weeksTo = span.endDate;
  for (const part of parts) {
    if (part.weeksFrom < weeksFrom) weeksFrom = part.weeksFrom;
    if (part.weeksTo > weeksTo) weeksTo = part.weeksTo;
  }
  const inputs = closeInputsOf([sets, organization]);
  const rest = snapshotRest({ span, version: plan.version, inputs, weeksFrom, weeksTo, sum: sum.total() });
  const snapshotHash = new ResumableSha256(hash.state()).update(snapshotTail(rest)).hex();
  await document(snapshotTail(rest, snapshotHash));
  const object = { ...(await json.finish()), sha256: hash.hex() };
  await csv.finish();
  await progressed();
  return { done: true, closed: { object, hash: snapshotHash } };
}
