import type { exports } from "@db/schema";
import { z } from "@hono/zod-openapi";
import { iso, isoOrNull } from "@/platform/schemas/time";
import { CalendarDate } from "@/platform/schemas/validation";

export const EXPORT_KINDS = ["TIMESHEETS", "PAY_LINES", "EVENTS"] as const;
export const EXPORT_STATUSES = ["QUEUED", "RUNNING", "SUCCEEDED", "FAILED"] as const;

const id = z.string().min(1).max(64);

export const ExportCreate = z
  .object({
    kind: z.enum(EXPORT_KINDS).openapi({
      description:
        "TIMESHEETS: the shifts as `GET /api/timesheets/export` writes them; PAY_LINES: the pay lines of " +
        "`GET /api/timesheets/pay`, one record per line with its employee; EVENTS: the event feed's events.",
    }),
    format: z.enum(["csv", "json"]).default("csv"),
    startDate: CalendarDate.openapi({ description: "First date (TIMESHEETS: business date; EVENTS: UTC date occurred)." }),
    endDate: CalendarDate.openapi({ description: "Last date, inclusive; any span (no 366-day cap).", example: "2026-03-15" }),
    locationId: id.optional().openapi({ description: "TIMESHEETS: this location's shifts; PAY_LINES: its employees'." }),
    employeeId: id.optional().openapi({ description: "TIMESHEETS and PAY_LINES: this staff member's." }),
  })
  .openapi("ExportCreate");

export const Export = z
  .object({
    id: z.string(),
    jobId: z.string().openapi({
      description: "The export's job (`GET /api/organizations/{organization_id}/jobs/{jobId}`): the export's own id.",
    }),
    kind: z.enum(EXPORT_KINDS),
    format: z.enum(["csv", "json"]),
    status: z.enum(EXPORT_STATUSES),
    startDate: z.string().openapi({ format: "date" }),
    endDate: z.string().openapi({ format: "date" }),
    locationId: z.string().nullable(),
    employeeId: z.string().nullable(),
    rowsWritten: z.number().int().openapi({ description: "Rows written so far: the job's progress." }),
    bytes: z.number().int().openapi({ description: "The file's size once SUCCEEDED (bytes buffered so far before)." }),
    sha256: z.string().nullable().openapi({ description: "SHA-256 (hex) of the file, once SUCCEEDED." }),
    error: z.string().nullable().openapi({ description: "Why the export FAILED." }),
    createdAt: z.string().openapi({ format: "date-time" }),
    finishedAt: z.string().nullable().openapi({ format: "date-time" }),
  })
  .openapi("Export");

export type ExportRow = typeof exports.$inferSelect;

export const serializeExport = (row: ExportRow) => ({
  id: row.id,
  jobId: row.id,
  kind: row.kind,
  format: row.format,
  status: row.status,
  startDate: row.startDate,
  endDate: row.endDate,
  locationId: row.locationId,
  employeeId: row.employeeId,
  rowsWritten: row.rowsWritten,
  bytes: row.bytes,
  sha256: row.sha256,
  error: row.error,
  createdAt: iso(row.createdAt),
  finishedAt: isoOrNull(row.finishedAt),
});
