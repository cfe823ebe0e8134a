import { getFile } from "@/data/files";
import { newId } from "@/data/ids";
import { newJobRow } from "@/data/jobs/jobs.data";
import { filesOf } from "@/data/shards";
import { findLocation, findStaffMember } from "@/data/tenant-records";
import { findLive, listPage } from "@/platform/crud/tenant-queries";
import { requestNow } from "@/platform/http/clock";
import type { AppRouteHandler } from "@/platform/http/env";
import { conflict, invalidField } from "@/problems/problem";
import type { ExportMessage } from "./export-chunk";
import { exportRecords, insertExport } from "./exports.data";
import type * as routes from "./exports.routes";
import { serializeExport } from "./exports.schemas";

export const create: AppRouteHandler<routes.CreateRoute> = async (c) => {
  const { organization_id } = c.req.valid("param");
  const body = c.req.valid("json");
  if (body.endDate < body.startDate) throw invalidField("endDate", "must not be before startDate");
  // Filters name the organization's own records (a filter on another's would export nothing, silently).
  if (body.locationId) await findLocation(c.var.db, organization_id, body.locationId);
  if (body.employeeId) await findStaffMember(c.var.db, organization_id, body.employeeId);
  const now = await requestNow(c);
  const id = newId(now.getTime());
  const row = {
    id,
    organizationId: organization_id,
    kind: body.kind,
    format: body.format,
    startDate: body.startDate,
    endDate: body.endDate,
    locationId: body.locationId ?? null,
    employeeId: body.employeeId ?? null,
    status: "QUEUED" as const,
    rowsWritten: 0,
    bytes: 0,
    sha256: null,
    error: null,
    finishedAt: null,
    chunk: 0,
    cursor: null,
    objectKey: `exports/${organization_id}/${id}.${body.format}`,
    uploadId: null,
    parts: [],
    pendingKey: null,
    active: true,
    createdAt: now,
    updatedAt: now,
    deletedAt: null,
  };
  const wire = serializeExport(row);
  // Its job has its id: GET …/jobs/{id} follows it as GET …/exports/{id} does.
  await insertExport(c.var, row, wire, newJobRow({ id, organizationId: organization_id, kind: "EXPORT", subject: id, now }));
  const message: ExportMessage = { exportId: id, organizationId: organization_id };
  // The job is committed: a send that fails leaves it QUEUED, and the Cron sends it again (src/jobs/export-resend.ts).
  await c.env.EXPORT_QUEUE.send(message).catch(() => undefined);
  c.header("Location", `/api/organizations/${organization_id}/exports/${id}`);
  return c.json(wire, 202);
};

export const list: AppRouteHandler<routes.ListRoute> = async (c) => {
  const { organization_id } = c.req.valid("param");
  const rows = await listPage(c, c.var.db, exportRecords, organization_id, c.req.valid("query"));
  return c.json(rows.map(serializeExport), 200);
};

export const getOne: AppRouteHandler<routes.GetOneRoute> = async (c) => {
  const { organization_id, id } = c.req.valid("param");
  return c.json(serializeExport(await findLive(c.var.db, exportRecords, organization_id, id, "Export")), 200);
};

export const download: AppRouteHandler<routes.DownloadRoute> = async (c) => {
  const { organization_id, id } = c.req.valid("param");
  const row = await findLive(c.var.db, exportRecords, organization_id, id, "Export");
  if (row.status !== "SUCCEEDED") throw conflict("EXPORT_NOT_READY", `The export is ${row.status}: only a SUCCEEDED export has a file.`);
  const object = await getFile(filesOf(c.env, c.var.shard), row.objectKey);
  if (!object) throw conflict("EXPORT_NOT_READY", "The export's file is no longer stored.");
  const csv = row.format === "csv";
  return new Response(object.body, {
    status: 200,
    headers: {
      "Content-Type": csv ? "text/csv; charset=utf-8; header=present" : "application/json; charset=utf-8",
      "Content-Disposition": `attachment; filename="${row.kind.toLowerCase()}-${row.startDate}-${row.endDate}.${row.format}"`,
      "Content-Length": String(object.size),
      "Cache-Control": "no-store",
    },
  }) as never;
};
