import type { jobs } from "@db/schema";
import { z } from "@hono/zod-openapi";
import { iso, isoOrNull } from "@/platform/schemas/time";

export const JOB_KINDS = ["PAY_CLOSE", "ACCRUAL", "EXPORT", "BULK"] as const;
export const JOB_STATUSES = ["QUEUED", "RUNNING", "SUCCEEDED", "FAILED"] as const;

export const Job = z
  .object({
    id: z.string(),
    kind: z.enum(JOB_KINDS).openapi({
      description:
        "PAY_CLOSE: a pay period's close. ACCRUAL: the Cron's time-off accrual pass of an organization too large for one " +
        "invocation. BULK: a bulk write larger than one request writes, in pages (a staff sync of more than 1,000 records, a bulk copy of more than 750 copies). " +
        "EXPORT: an export (`POST …/exports`; the job has the export's id).",
    }),
    subject: z.string().openapi({
      description:
        "What the job works on: a PAY_CLOSE's pay period id (its start date); an ACCRUAL's instant (the Cron's run); a " +
        "BULK's operation (`staff-sync`, `schedule-copy`); an EXPORT's export id.",
    }),
    status: z.enum(JOB_STATUSES),
    step: z
      .string()
      .nullable()
      .openapi({
        description:
          "The last step done (a close's `plan`, `employees-1` … `employees-n`, `assemble-1` … `assemble-k`, `commit`; an " +
          "accrual's `page-1` … `page-n`, `finish`; a staff sync's `page-2`, `deactivate-1`, `finish`; a bulk copy's `copy-2`, `finish`; an export's " +
          "`chunk-2`, its last chunk completing the file; a FAILED export's, the chunk that failed).",
      }),
    steps: z.number().int().nullable().openapi({ description: "Steps planned, once the first step counted the work." }),
    progress: z.number().min(0).max(1).openapi({ description: "Share of the work done, 0 to 1." }),
    error: z.object({ code: z.string(), detail: z.string() }).nullable().openapi({
      description: "Why the job FAILED: a problem code of the operation that started it (e.g. PAY_PERIOD_CHANGED) or JOB_FAILED.",
    }),
    createdAt: z.string().openapi({ format: "date-time" }),
    finishedAt: z.string().nullable().openapi({ format: "date-time" }),
  })
  .openapi("Job");

export type JobRow = typeof jobs.$inferSelect;

export const serializeJob = (row: JobRow) => ({
  id: row.id,
  kind: row.kind,
  subject: row.subject,
  status: row.status,
  step: row.step,
  steps: row.steps,
  progress: row.progress / 1000,
  error: row.error === null ? null : { code: row.errorCode ?? "JOB_FAILED", detail: row.error },
  createdAt: iso(row.createdAt),
  finishedAt: isoOrNull(row.finishedAt),
});
