import { authorize } from "@/auth/authorize";
import { jsonContent, OrganizationRecordParams, problems } from "@/platform/openapi/helpers";
import { defineRoute } from "@/platform/routes/define-route";
import { Job } from "@/wire/job.schemas";

/** A job carries an organization-wide operation (a pay period's close, an accrual pass, an export): its admins follow it. */
const admin = authorize("ORGANIZATION_ADMIN");

export const getOne = defineRoute({
  method: "get",
  path: "/api/organizations/{organization_id}/jobs/{id}",
  operationId: "getJob",
  flags: { scope: "organization" },
  tags: ["Jobs"],
  summary: "Retrieve a job",
  description:
    "Needs ORGANIZATION_ADMIN. Work larger than one request runs as a durable job (a Cloudflare Workflow, or for an " +
    "export a chain of queue messages; steps retried and resumed after a failure): the close of a pay period whose organization is too large to close " +
    "within the request (`POST …/pay-periods/{periodId}/close` answers 202 with this job's `Location`), and the " +
    "time-off accrual pass of an organization whose active policies cover more staff than the deployment's " +
    "ACCRUAL_IN_CRON_MAX_BALANCES (5,000): the Cron starts it (`job.created`), one page of 5,000 balances a step " +
    "(`page-1`, `page-2`, …, then `finish`), never two at once for an organization; a page redelivered accrues " +
    "nothing twice, and a FAILED accrual keeps the entries its pages wrote (each is final) for the next run to " +
    "complete. A staff sync of more than 1,000 records (`POST …/staffmembers/sync` answers 202) runs as a BULK job, " +
    "one page of 1,000 records a step, each page one atomic batch; a FAILED one keeps the pages it wrote (send the " +
    "sync again: it is idempotent by externalId). Every export (`POST …/exports` answers 202 with the export, whose " +
    "`jobId` is this job's id, the export's own) is an EXPORT job: one step a chunk of rows (`chunk-1`, `chunk-2`, …, " +
    "the last completing the file; `steps` planned from a count at the first chunk), each chunk's progress " +
    "written with its rows, a chunk redelivered writing nothing twice, a chunk failing its 4 deliveries ending the " +
    "export and its job FAILED with nothing of it left in storage. `status` " +
    "goes QUEUED → RUNNING → SUCCEEDED or FAILED; `step` names the last step done, `steps` the steps planned once " +
    "counted, `progress` the share done (0–1). A FAILED job's `error` carries the problem code its operation would " +
    "have answered (e.g. PAY_PERIOD_CHANGED when shifts changed while it ran) or JOB_FAILED, and its detail; the " +
    "events `job.succeeded` and `job.failed` say so too. A close job that failed changed nothing: start the operation again.",
  middleware: [admin] as const,
  request: { params: OrganizationRecordParams },
  responses: { 200: jsonContent(Job, "The job"), ...problems("JOB_NOT_FOUND") },
});

export type GetOneRoute = typeof getOne;
