import { index, integer, sqliteTable, text } from "drizzle-orm/sqlite-core";
import { timestamp } from "./columns";

/**
 * Durable jobs (src/jobs/pay-close-workflow.ts): work larger than one Worker invocation, run as a Cloudflare Workflow
 * whose instance id is the job's id, or (an EXPORT, of the export's id) as a chain of queue messages (src/jobs/export-queue.ts). The row is what `GET …/jobs/{id}` answers: the Workflow keeps the steps' results,
 * the row their progress. `stepIndex` guards every progress UPDATE (a redelivered step never moves it back), and the
 * terminal statuses are written only from QUEUED or RUNNING (a job ends once).
 */
export const jobs = sqliteTable(
  "jobs",
  {
    id: text("id").primaryKey(),
    organizationId: text("organization_id").notNull(),
    kind: text("kind", { enum: ["PAY_CLOSE", "ACCRUAL", "EXPORT", "BULK"] }).notNull(),
    status: text("status", { enum: ["QUEUED", "RUNNING", "SUCCEEDED", "FAILED"] }).notNull(),
    /** What the job works on, e.g. the pay period's id. */
    subject: text("subject").notNull(),
    step: text("step"),
    stepIndex: integer("step_index").notNull().default(0),
    /** Steps planned; known once the first step has counted the work (null before). */
    steps: integer("steps"),
    /** Thousandths of the work done (the wire's progress is 0–1). */
    progress: integer("progress_permille").notNull().default(0),
    error: text("error"),
    errorCode: text("error_code"),
    createdAt: timestamp("created_at").notNull(),
    updatedAt: timestamp("updated_at").notNull(),
    finishedAt: timestamp("finished_at"),
  },
  (t) => [index("jobs_organization").on(t.organizationId, t.kind, t.subject)],
);
