import { staffMembers } from "@db/schema";
import { and, asc, gt, isNotNull, type SQL, sql } from "drizzle-orm";
import { chunk } from "@/data/chunk";
import { organizationNow } from "@/data/clock";
import { getFile, putFile } from "@/data/files";
import { newId } from "@/data/ids";
import { endJob, type JobError, type JobFault, newJobRow, recordStep, type StepContext, startJob } from "@/data/jobs/jobs.data";
import { inJsonList } from "@/data/json-list";
import type { EventType } from "@/data/outbox/outbox";
import { inOrganization, softDeleted } from "@/data/tenancy";
import { guardedBatch, type Writer } from "@/data/write/guarded-batch";
import type { Principal } from "@/domain/permissions";
import { type FieldError, ProblemError, validationFailed } from "@/problems/problem";
import { holdingOneOf } from "./staff-members.guards";
import { MAX_SYNC_RECORDS, type StaffMemberSyncInput } from "./staff-members.schemas";
import { defaultAccessRole, resolveReferences } from "./staff-members-references.data";
import { syncStaffMembers } from "./staff-members-sync.data";

/**
 * A staff sync larger than the request's (more than STAFF_SYNC_IN_REQUEST_MAX records) as a durable BULK job
 * (src/jobs/bulk-workflow.ts runs these steps as a Cloudflare Workflow). The request checks what the request's sync
 * checks, stores the validated records in R2 under `jobs/{jobId}/` (one object per page, and the payload's externalIds)
 * and answers 202. Step `page-n` syncs the n-th page of `pageRecords` records as the request's sync does — one atomic
 * batch with its `staff_member.created|updated` events — so a page redelivered after its batch upserts the same
 * externalIds again and, each record now identical to the stored member, changes and records nothing. With
 * `deactivateMissing`, steps `deactivate-m` then walk the organization's live members with an externalId in id order,
 * a page of `pageRecords` each, soft-deleting (with `staff_member.deleted`) those the payload does not name and the
 * caller may manage; a page redelivered finds the members it deleted no longer live. `finish` deletes the stored
 * records and ends the job SUCCEEDED; a refusal (a 4xx problem of a page, e.g. ACCESS_ROLE_DELETED) or a step out of
 * retries ends it FAILED by `fail`: the pages before stay written (send the sync again: it is idempotent by externalId).
 */
export interface StaffSyncJobParams {
  operation: "staff-sync";
  jobId: string;
  organizationId: string;
  /** Who asked: every page writes as them (their guard, their audit entries). */
  principal: Principal;
  records: number;
  pageRecords: number;
  deactivateMissing: boolean;
  /** Tests only (honoured when the Worker's JOB_FAULTS is "allow"): the named steps fail after their work. */
  fault?: JobFault;
}

export type { JobError, StepContext } from "@/data/jobs/jobs.data";
export type SyncedPage = { ok: true; created: number; updated: number } | { ok: false; error: JobError };
export interface DeactivatedPage {
  afterId: string | null;
  deactivated: number;
}

const prefixOf = (jobId: string) => `jobs/${jobId}/`;
const pageKey = (jobId: string, n: number) => `${prefixOf(jobId)}records-${n}.json`;
const externalIdsKey = (jobId: string) => `${prefixOf(jobId)}external-ids.json`;

const pagesOf = (p: Pick<StaffSyncJobParams, "records" | "pageRecords">) => Math.ceil(p.records / p.pageRecords);
/** Steps planned: the pages, one deactivation page at least, `finish`. */
const plannedSteps = (p: StaffSyncJobParams) => pagesOf(p) + (p.deactivateMissing ? 1 : 0) + 1;

/** STAFF_SYNC_IN_REQUEST_MAX (default and at most MAX_SYNC_RECORDS, 1,000): a larger sync runs as a job. */
export function syncInRequestMax(env: object): number {
  const max = Number((env as { STAFF_SYNC_IN_REQUEST_MAX?: string }).STAFF_SYNC_IN_REQUEST_MAX);
  return Number.isInteger(max) && max >= 0 ? Math.min(max, MAX_SYNC_RECORDS) : MAX_SYNC_RECORDS;
}

/** STAFF_SYNC_JOB_PAGE_RECORDS (default and at most MAX_SYNC_RECORDS): the records of one page, one atomic batch. */
export function syncJobPageOf(env: object): number {
  const page = Number((env as { STAFF_SYNC_JOB_PAGE_RECORDS?: string }).STAFF_SYNC_JOB_PAGE_RECORDS);
  return Number.isInteger(page) && page > 0 ? Math.min(page, MAX_SYNC_RECORDS) : MAX_SYNC_RECORDS;
}

/**
 * The request's checks of a sync, page by page (a page's externalIds and references are one read within D1's limits):
 * every 400 of every page in one problem, as the request's sync names them; else the first page's 403. Writes nothing.
 */
export async function checkSyncAsJob(writer: Writer, organizationId: string, body: StaffMemberSyncInput, pageRecords: number) {
  const invalid: FieldError[] = [];
  let refused: ProblemError | undefined;
  for (const [n, records] of chunk(body.records, pageRecords).entries()) {
    const first = n * pageRecords;
    const pathOf = (index: number, field: string) => `records.${first + index}.${field}`;
    try {
      const references = await resolveReferences(writer.db, writer.principal, organizationId, records, pathOf, { byExternalId: true });
      records.forEach((_, index) => {
        if (references.accessRoleIds[index] === undefined) defaultAccessRole(references, pathOf(index, "accessRoleId"));
      });
    } catch (error) {
      if (!(error instanceof ProblemError) || error.status >= 500) throw error;
      if (error.code === "VALIDATION_FAILED") invalid.push(...((error.extensions.errors as FieldError[] | undefined) ?? []));
      else refused ??= error;
    }
  }
  if (invalid.length) throw validationFailed(invalid);
  if (refused) throw refused;
}

/**
 * The job started: the records stored a page an object, the job's row QUEUED with `job.created`, its Workflow created
 * (the instance id is the job's id). A Workflow that cannot be created ends the job FAILED, its objects deleted.
 */
export async function startStaffSyncJob(
  writer: Writer,
  files: R2Bucket,
  workflow: Workflow<StaffSyncJobParams>,
  organizationId: string,
  body: StaffMemberSyncInput,
  options: { pageRecords: number; fault?: JobFault | undefined },
) {
  const now = await organizationNow({ ...writer, organizationId });
  const row = newJobRow({ id: newId(now.getTime()), organizationId, kind: "BULK", subject: "staff-sync", now });
  const pages = chunk(body.records, options.pageRecords);
  await Promise.all([
    ...pages.map((records, i) => putFile(files, pageKey(row.id, i + 1), JSON.stringify(records), "application/json")),
    putFile(files, externalIdsKey(row.id), JSON.stringify(body.records.map((r) => r.externalId)), "application/json"),
  ]);
  const params: StaffSyncJobParams = {
    operation: "staff-sync",
    jobId: row.id,
    organizationId,
    principal: writer.principal,
    records: body.records.length,
    pageRecords: options.pageRecords,
    deactivateMissing: body.deactivateMissing,
    ...(options.fault && { fault: options.fault }),
  };
  return startJob(writer, files, workflow, row, params, prefixOf(row.id));
}

async function readStored<T>(c: StepContext, key: string): Promise<T> {
  const object = await getFile(c.files, key);
  if (!object) throw new Error(`The job's object ${key} is missing.`);
  return (await object.json()) as T;
}

const nowOf = (c: StepContext, p: StaffSyncJobParams) => organizationNow({ ...c.writer, organizationId: p.organizationId });

/** Step `page-n`: the n-th page synced as the request's sync (one atomic batch, its events); a 4xx ends the job. */
export async function syncPage(c: StepContext, p: StaffSyncJobParams, n: number): Promise<SyncedPage> {
  const records = await readStored<StaffMemberSyncInput["records"]>(c, pageKey(p.jobId, n));
  let page: SyncedPage;
  try {
    const result = await syncStaffMembers(c.writer, p.organizationId, { records, deactivateMissing: false }, (n - 1) * p.pageRecords);
    page = { ok: true, created: result.created, updated: result.updated };
  } catch (error) {
    if (!(error instanceof ProblemError) || error.status >= 500) throw error;
    return { ok: false, error: { code: error.code, detail: error.detail } };
  }
  const steps = plannedSteps(p);
  await recordStep(c.writer.db, p.jobId, { name: `page-${n}`, index: n, steps, progress: n / steps, at: await nowOf(c, p) });
  return page;
}

/**
 * Step `deactivate-m`: the next `pageRecords` live members with an externalId after `afterId`; those the payload does
 * not name, holding an access role the caller may grant, soft-deleted in one batch with `staff_member.deleted` each.
 */
export async function deactivatePage(c: StepContext, p: StaffSyncJobParams, m: number, afterId: string | null): Promise<DeactivatedPage> {
  const { db, principal } = c.writer;
  const [named, references] = await Promise.all([
    readStored<string[]>(c, externalIdsKey(p.jobId)),
    resolveReferences(db, principal, p.organizationId, [], (_, field) => field),
  ]);
  const members = await db
    .select({ id: staffMembers.id, externalId: staffMembers.externalId })
    .from(staffMembers)
    .where(
      and(
        inOrganization(staffMembers, p.organizationId),
        isNotNull(staffMembers.externalId),
        afterId === null ? undefined : gt(staffMembers.id, afterId),
      ),
    )
    .orderBy(asc(staffMembers.id))
    .limit(p.pageRecords);
  const payload = new Set(named);
  const missing = members.filter((member) => !payload.has(member.externalId!)).map((member) => member.id);
  const now = await nowOf(c, p);
  let deactivated = 0;
  if (missing.length) {
    const only: SQL = and(
      inOrganization(staffMembers, p.organizationId),
      inJsonList(staffMembers.id, missing),
      isNotNull(staffMembers.externalId),
      holdingOneOf(references.grantableAccessRoleIds),
    )!;
    const [rows] = await guardedBatch(
      c.writer,
      [db.update(staffMembers).set(softDeleted(now)).where(only).returning({ id: staffMembers.id })],
      [],
      {
        events: [
          {
            organizationId: p.organizationId,
            occurredAt: now,
            rows: {
              table: staffMembers,
              where: sql`${inJsonList(staffMembers.id, missing)} AND ${staffMembers.deletedAt} = ${now.getTime()}`,
              typeOf: sql`${"staff_member.deleted" satisfies EventType}`,
            },
          },
        ],
      },
    );
    deactivated = rows.length;
  }
  const index = pagesOf(p) + m;
  const steps = Math.max(plannedSteps(p), index + 1);
  await recordStep(db, p.jobId, { name: `deactivate-${m}`, index, steps, progress: index / steps, at: now });
  return { afterId: members.length < p.pageRecords ? null : members.at(-1)!.id, deactivated };
}

/** Step `finish` (or `fail`): the stored records deleted, then the job SUCCEEDED (or FAILED with `error`) with its event, once. */
export async function finishStaffSyncJob(c: StepContext, p: StaffSyncJobParams, error?: JobError) {
  await endJob(c, p.organizationId, p.jobId, prefixOf(p.jobId), await nowOf(c, p), error);
}
