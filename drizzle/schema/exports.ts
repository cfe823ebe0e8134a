import { index, integer, sqliteTable, text } from "drizzle-orm/sqlite-core";
import { lifecycle, timestamp } from "./columns";

/** A part of an export's R2 multipart object, as `completeMultipartUpload` takes it. */
export interface ExportPart {
  partNumber: number;
  etag: string;
}

/**
 * Exports worked in chunks by the Queue consumer (src/features/exports/export-worker.ts). The row is the job's whole
 * state: `chunk` counts the chunks done and is the guard of the one conditional UPDATE each chunk ends with, which
 * moves `cursor` (where the next chunk reads from), `parts` (the multipart parts uploaded), `pendingKey` (the R2
 * object holding text not yet uploaded as a part, under R2's 5 MiB minimum) and `rowsWritten` together.
 */
export const exports = sqliteTable(
  "exports",
  {
    id: text("id").primaryKey(),
    organizationId: text("organization_id").notNull(),
    kind: text("kind", { enum: ["TIMESHEETS", "PAY_LINES", "EVENTS"] }).notNull(),
    format: text("format", { enum: ["csv", "json"] }).notNull(),
    startDate: text("start_date").notNull(),
    endDate: text("end_date").notNull(),
    locationId: text("location_id"),
    employeeId: text("employee_id"),
    status: text("status", { enum: ["QUEUED", "RUNNING", "SUCCEEDED", "FAILED"] }).notNull(),
    rowsWritten: integer("rows_written").notNull().default(0),
    bytes: integer("bytes").notNull().default(0),
    sha256: text("sha256"),
    error: text("error"),
    finishedAt: timestamp("finished_at"),
    chunk: integer("chunk").notNull().default(0),
    cursor: text("cursor"),
    objectKey: text("object_key").notNull(),
    uploadId: text("upload_id"),
    parts: text("parts", { mode: "json" }).$type<ExportPart[]>().notNull(),
    pendingKey: text("pending_key"),
    ...lifecycle,
  },
  (t) => [index("exports_organization").on(t.organizationId)],
);
