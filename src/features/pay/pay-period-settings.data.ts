import { organizations, payPeriodSettings, payPeriods, timesheetApprovals } from "@db/schema";
import { and, eq, sql } from "drizzle-orm";
import type { Database, Statement } from "@/data/client";
import { organizationNow } from "@/data/clock";
import { guard } from "@/data/write/guard";
import { guardedBatch, type Writer } from "@/data/write/guarded-batch";
import {
  defaultPayPeriodSettings,
  isPayPeriodId,
  type PayPeriodSettings,
  payPeriodContaining,
  payPeriodSettingsProblems,
} from "@/domain/pay-periods";
import { iso } from "@/platform/schemas/time";
import { conflict, notFound, validationFailed } from "@/problems/problem";

/** The settings in force: the stored row, or the default from the organization's creation week (revision 0). */
export interface SettingsRead extends PayPeriodSettings {
  revision: number;
  updatedAt: Date;
  /** The organization's zone: its local date says whether a period has ended. */
  timezone: string;
}

export const settingsChanged = () =>
  conflict("PAY_PERIOD_CHANGED", "The pay period settings changed meanwhile: nothing was written. Read the periods again and retry.");

const settingsStatement = (db: Database, organizationId: string) =>
  db
    .select({
      createdAt: organizations.createdAt,
      timezone: organizations.timezone,
      frequency: payPeriodSettings.frequency,
      anchorDate: payPeriodSettings.anchorDate,
      revision: payPeriodSettings.revision,
      updatedAt: payPeriodSettings.updatedAt,
    })
    .from(organizations)
    .leftJoin(payPeriodSettings, eq(payPeriodSettings.organizationId, organizations.id))
    .where(eq(organizations.id, organizationId));

function settingsOf(rows: Awaited<ReturnType<typeof settingsStatement>>): SettingsRead {
  const row = rows[0];
  if (!row) throw notFound("Organization");
  if (row.frequency && row.anchorDate && row.updatedAt) {
    return {
      frequency: row.frequency as SettingsRead["frequency"],
      anchorDate: row.anchorDate,
      revision: row.revision ?? 0,
      updatedAt: row.updatedAt,
      timezone: row.timezone,
    };
  }
  return {
    ...defaultPayPeriodSettings(row.createdAt.toISOString().slice(0, 10)),
    revision: 0,
    updatedAt: row.createdAt,
    timezone: row.timezone,
  };
}

export const settingsWire = (settings: SettingsRead) => ({
  frequency: settings.frequency,
  anchorDate: settings.anchorDate,
  updatedAt: iso(settings.updatedAt),
});

export const readSettings = async (db: Database, organizationId: string) => settingsOf(await settingsStatement(db, organizationId));

/** pay_period_settings.frequency of the kept row: as it was, NULL when the settings changed since the read. */
export const settingsAsRead = guard({
  column: payPeriodSettings.frequency,
  problem: settingsChanged,
  sql: (read: SettingsRead) =>
    sql`CASE WHEN ${payPeriodSettings.frequency} = ${read.frequency}
          AND ${payPeriodSettings.anchorDate} = ${read.anchorDate} THEN ${payPeriodSettings.frequency} END`,
});

/**
 * Keeps the settings as a write read them, in that write's batch: the row is written (the default made explicit)
 * with its revision counted up, guarded by `settingsAsRead`.
 */
export const keepSettings = (db: Database, organizationId: string, read: SettingsRead): Statement =>
  db
    .insert(payPeriodSettings)
    .values({ organizationId, frequency: read.frequency, anchorDate: read.anchorDate, revision: 1, updatedAt: read.updatedAt })
    .onConflictDoUpdate({
      target: payPeriodSettings.organizationId,
      set: {
        revision: sql`${payPeriodSettings.revision} + 1`,
        frequency: settingsAsRead.sql(read),
      },
    });

/** Periods a settings change must not move: every one closed at least once, and every one holding approvals. */
export async function patchSettings(writer: Writer, organizationId: string, body: { frequency?: string; anchorDate?: string }) {
  const { db } = writer;
  const [settingsRows, closed, approved] = await db.batch([
    settingsStatement(db, organizationId),
    db
      .select({ startDate: payPeriods.startDate, endDate: payPeriods.endDate })
      .from(payPeriods)
      .where(and(eq(payPeriods.organizationId, organizationId), sql`${payPeriods.version} > 0`)),
    db
      .selectDistinct({ startDate: timesheetApprovals.periodStartDate, endDate: timesheetApprovals.periodEndDate })
      .from(timesheetApprovals)
      .where(eq(timesheetApprovals.organizationId, organizationId)),
  ]);
  const was = settingsOf(settingsRows);
  const next = { frequency: body.frequency ?? was.frequency, anchorDate: body.anchorDate ?? was.anchorDate };
  const problems = payPeriodSettingsProblems(next);
  if (problems.length) throw validationFailed(problems);
  const settings = next as PayPeriodSettings;
  // Nothing to change: no write and no event.
  if (settings.frequency === was.frequency && settings.anchorDate === was.anchorDate) return settingsWire(was);
  const moved = (spans: { startDate: string; endDate: string }[]) =>
    spans
      .filter((s) => !isPayPeriodId(settings, s.startDate) || payPeriodContaining(settings, s.startDate).endDate !== s.endDate)
      .map((s) => s.startDate);
  const movedClosed = moved(closed);
  if (movedClosed.length) {
    throw conflict("PAY_PERIODS_CLOSED", "The change would move pay periods that have been closed.", { periodIds: movedClosed });
  }
  const movedApproved = moved(approved);
  if (movedApproved.length) {
    throw conflict("TIMESHEET_APPROVED", "The change would move pay periods holding approved timesheets: withdraw them first.", {
      periodIds: movedApproved,
    });
  }
  const now = await organizationNow({ ...writer, organizationId });
  const written: SettingsRead = { ...settings, revision: was.revision, updatedAt: now, timezone: was.timezone };
  await guardedBatch(
    writer,
    [
      db
        .insert(payPeriodSettings)
        .values({ organizationId, ...settings, revision: 0, updatedAt: now })
        .onConflictDoUpdate({
          target: payPeriodSettings.organizationId,
          // Only over the revision read: an approval or close since then fixed periods this check did not see.
          set: {
            frequency: sql`CASE WHEN ${payPeriodSettings.revision} = ${was.revision} THEN excluded.frequency END`,
            anchorDate: sql`excluded.anchor_date`,
            updatedAt: sql`excluded.updated_at`,
          },
        }),
    ],
    [settingsAsRead],
    { events: [{ type: "pay_period_settings.updated", organizationId, occurredAt: now, data: settingsWire(written) }] },
  );
  return settingsWire(written);
}
