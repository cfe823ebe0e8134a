import { z } from "@hono/zod-openapi";
import { authorize } from "@/auth/authorize";
import { jsonBody, jsonContent, OrganizationParams, OrganizationRecordParams, problems } from "@/platform/openapi/helpers";
import { defineRoute } from "@/platform/routes/define-route";
import { ListQuery } from "@/platform/schemas/list-query";
import { Export, ExportCreate } from "./exports.schemas";

const tags = ["Exports"];
/** Exports carry every area's records, wages and events included: the organization's admins only. */
const admin = authorize("ORGANIZATION_ADMIN");
const path = "/api/organizations/{organization_id}/exports";

export const create = defineRoute({
  method: "post",
  path,
  operationId: "createExport",
  flags: { scope: "organization", idempotency: "middleware" },
  tags,
  summary: "Start an export job",
  description:
    "Needs ORGANIZATION_ADMIN. Queues an export of any range (no 366-day cap) and answers 202 at once with the export " +
    "and its `Location` (`…/exports/{id}`). The export is a job (`jobId`, the export's own id: " +
    "`GET /api/organizations/{organization_id}/jobs/{jobId}` shows its `step`, `chunk-1`, `chunk-2`, …, `steps` " +
    "and `progress`; `job.created`, then `job.succeeded` or `job.failed`). A background consumer writes it in chunks " +
    "of rows into one file (an R2 multipart object of 5 MiB parts), each chunk retried up to 4 times and written once " +
    "however often it is delivered; a job whose work has not moved for 5 minutes (its message never sent, or lost) is " +
    "sent again by the Cron, which repeats no row and drops none; " +
    "follow `rowsWritten` with `GET …/exports/{id}` (or the job) until `status` is SUCCEEDED (then download it, with " +
    "its `bytes` and `sha256`) or FAILED (`error` says why; nothing of it is kept). The events `export.succeeded` and " +
    "`export.failed` say so too. " +
    "TIMESHEETS writes exactly what `GET /api/timesheets/export` writes for the same range and filters (CSV or JSON); " +
    "PAY_LINES writes the lines of `GET /api/timesheets/pay` (any span: the job computes a few employees at a time), " +
    "one record per line with its employee's ids and currency; " +
    "EVENTS writes the event feed's events that occurred on those UTC dates, in sequence order (CSV: the data as JSON " +
    "in one column). An export is a snapshot of when it ran: the same request later, after new data, writes a new " +
    "file. `locationId`/`employeeId` apply to TIMESHEETS and PAY_LINES and must name the organization's live location and " +
    "staff member (else 404). `endDate` before `startDate` is a 400 naming endDate.",
  middleware: [admin] as const,
  request: { params: OrganizationParams, body: jsonBody(ExportCreate) },
  responses: {
    202: {
      description: "The queued export, with its job's id",
      headers: z.object({ Location: z.string().openapi({ description: "The export's URL (its job's: …/jobs/{jobId})" }) }),
      content: { "application/json": { schema: Export } },
    },
    ...problems("LOCATION_NOT_FOUND", "STAFF_MEMBER_NOT_FOUND"),
  },
});

export const list = defineRoute({
  method: "get",
  path,
  operationId: "listExports",
  flags: { scope: "organization", list: true },
  tags,
  summary: "Retrieve the organization's exports",
  description: "Needs ORGANIZATION_ADMIN. Oldest first, paged.",
  middleware: [admin] as const,
  request: { params: OrganizationParams, query: ListQuery },
  responses: { 200: jsonContent(z.array(Export), "Export jobs, oldest first"), ...problems() },
});

export const getOne = defineRoute({
  method: "get",
  path: `${path}/{id}`,
  operationId: "getExport",
  flags: { scope: "organization" },
  tags,
  summary: "Retrieve an export job",
  description:
    "Needs ORGANIZATION_ADMIN. The export's status and progress (`rowsWritten`); its job (`GET …/jobs/{jobId}`) " +
    "says the same as steps (`step`, `steps`, `progress` 0–1).",
  middleware: [admin] as const,
  request: { params: OrganizationRecordParams },
  responses: { 200: jsonContent(Export, "The export job"), ...problems("EXPORT_NOT_FOUND") },
});

export const download = defineRoute({
  method: "get",
  path: `${path}/{id}/download`,
  operationId: "downloadExport",
  flags: { scope: "organization" },
  tags,
  summary: "Download an export's file",
  description:
    "Needs ORGANIZATION_ADMIN. The file, streamed from storage (Content-Disposition: attachment), once the job " +
    "SUCCEEDED; before that (or when it FAILED), 409 EXPORT_NOT_READY. Not paged: the file is one object, streamed " +
    "as storage reads it, whatever its size.",
  middleware: [admin] as const,
  request: { params: OrganizationRecordParams },
  responses: {
    200: {
      description: "The file",
      content: { "text/csv": { schema: z.string() }, "application/json": { schema: z.array(z.unknown()) } },
    },
    ...problems("EXPORT_NOT_FOUND", "EXPORT_NOT_READY"),
  },
});

export type CreateRoute = typeof create;
export type ListRoute = typeof list;
export type GetOneRoute = typeof getOne;
export type DownloadRoute = typeof download;
