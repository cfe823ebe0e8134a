import { attendanceSettings, organizations } from "@db/schema";
import { eq, or, type SQL, sql } from "drizzle-orm";
import type { Database } from "@/data/client";
import { organizationNow } from "@/data/clock";
import { type Placeholders, prepared } from "@/data/prepared";
import { guardedBatch, type Writer } from "@/data/write/guarded-batch";
import { DEFAULT_ATTENDANCE_SETTINGS } from "@/domain/attendance";
import { notFound } from "@/problems/problem";
import { type AttendanceSettingsPatchInput, serializeAttendanceSettings } from "./attendance.schemas";

type Patch = AttendanceSettingsPatchInput;

const storedSettings = prepared((db, p: Placeholders<{ organizationId: string }>) =>
  db.select().from(attendanceSettings).where(eq(attendanceSettings.organizationId, p.organizationId)),
);

/** The organization's stored settings row, if it ever changed them: also a statement of a punch's read batch. */
export const settingsStatement = (db: Database, organizationId: string) => storedSettings(db, { organizationId });

/** The settings as the API answers them: the defaults, dated the organization's creation, until a PATCH. */
export async function readSettings(db: Database, organizationId: string) {
  const [[row], [organization]] = await db.batch([
    settingsStatement(db, organizationId),
    db.select({ createdAt: organizations.createdAt }).from(organizations).where(eq(organizations.id, organizationId)),
  ]);
  if (!organization) throw notFound("Organization");
  return serializeAttendanceSettings(row, organization.createdAt);
}

const COLUMNS = {
  lateGraceMinutes: attendanceSettings.lateGraceMinutes,
  earlyLeaveGraceMinutes: attendanceSettings.earlyLeaveGraceMinutes,
  noShowAfterMinutes: attendanceSettings.noShowAfterMinutes,
  autoClockOutAfterMinutes: attendanceSettings.autoClockOutAfterMinutes,
} as const;

/**
 * One upsert of the named settings (concurrent PATCHes of different settings both stick). It changes the row, and
 * so records `attendance_settings.updated`, only when a named setting differs from the stored one.
 */
export async function patchSettings(writer: Writer, organizationId: string, patch: Patch) {
  const now = await organizationNow({ ...writer, organizationId });
  const named = Object.keys(patch) as (keyof typeof COLUMNS)[];
  const differs: SQL[] = named.map((key) => sql`${COLUMNS[key]} IS NOT ${patch[key] ?? null}`);
  const upsert = writer.db
    .insert(attendanceSettings)
    .values({ ...DEFAULT_ATTENDANCE_SETTINGS, ...patch, organizationId, createdAt: now, updatedAt: now })
    .onConflictDoUpdate({ target: attendanceSettings.organizationId, set: { ...patch, updatedAt: now }, setWhere: or(...differs) });
  await guardedBatch(writer, [upsert], [], {
    events: [
      {
        organizationId,
        type: "attendance_settings.updated",
        row: { table: attendanceSettings, where: eq(attendanceSettings.organizationId, organizationId) },
      },
    ],
  });
  return readSettings(writer.db, organizationId);
}
