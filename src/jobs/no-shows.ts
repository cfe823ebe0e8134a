import { attendanceExceptions } from "@db/schema";
import { type SQL, sql } from "drizzle-orm";
import { auditStatement } from "@/data/audit/audit-entries";
import type { Database } from "@/data/client";
import { inPassScope, type PassScope } from "@/data/clock";
import { frozenHere } from "@/data/freezes";
import { newId } from "@/data/ids";
import { eventsOfRowsByOrganization } from "@/data/outbox/outbox";
import { rawAll, rawRun } from "@/data/raw-statement";
import { DEFAULT_ATTENDANCE_SETTINGS, NO_SHOW_LOOKBACK_DAYS } from "@/domain/attendance";
import { systemActor } from "@/domain/audit";

const MINUTE_MS = 60_000;
/** The WHERE of the unique index attendance_exceptions_once_per_entry, verbatim, so that SQLite's planner may use it. */
const ONCE_PER_ENTRY = sql.raw("x.type IN ('NO_SHOW', 'LATE_CLOCK_IN', 'EARLY_CLOCK_OUT')");
const DAY_MS = 86_400_000;

/** Where the no-show scan is in the published entries, by (start, id). */
export interface EntryCursor {
  startAt: number;
  id: string;
}

export const FIRST_ENTRY: EntryCursor = { startAt: -1, id: "" };

/**
 * NO_SHOW for up to `limit` published entries after `cursor` (by start, then id), of any organization, in one atomic
 * batch with their events: entries that started in the last NO_SHOW_LOOKBACK_DAYS, at least `noShowAfterMinutes` ago,
 * were published before then (a schedule published after the fact raises nothing), and have no shift of their staff
 * member at their location begun by then and not ended before the entry's start (the open one, by its unique index;
 * the closed ones ended since the entry's start, by shifts_employee_end: never the staff member's whole history). Each entry is raised once: the
 * insert skips entries with a NO_SHOW already and the unique index refuses a concurrent pass's twin; the events are
 * those of the rows still carrying this batch's ids. Answers how many were raised and the last raised entry, where the
 * next batch starts (so a backlog is walked once, not once per batch).
 */
export async function raiseNoShows(
  db: Database,
  now: Date,
  limit: number,
  cursor: EntryCursor = FIRST_ENTRY,
  scope: PassScope = "live",
): Promise<{ raised: number; next: EntryCursor | null }> {
  const prefix = `${newId()}.`;
  /** The exceptions this batch made: their ids carry its prefix. */
  const ofThisBatch = (id: SQL) => sql`${id} > ${prefix} AND ${id} < ${`${prefix.slice(0, -1)}/`}`;
  const insert = rawRun(db, noShowsInsert(now, limit, cursor, scope, prefix));
  const eventId = newId();
  const [inserted, , , last] = await db.batch([
    insert,
    eventsOfRowsByOrganization(
      db,
      now,
      { table: attendanceExceptions, where: ofThisBatch(sql`${attendanceExceptions.id}`), typeOf: sql`'attendance_exception.raised'` },
      eventId,
    ),
    auditStatement(db, systemActor("attendance-pass"), [eventId]),
    rawAll<{ start_at: number; id: string }>(
      db,
      sql`SELECT e.start_at, e.id FROM attendance_exceptions x JOIN schedule_entries e ON e.id = x.schedule_entry_id
        WHERE ${ofThisBatch(sql`x.id`)} ORDER BY e.start_at DESC, e.id DESC LIMIT 1`,
    ),
  ]);
  const [end] = last as { start_at: number; id: string }[];
  return { raised: inserted.changes, next: end ? { startAt: end.start_at, id: end.id } : null };
}

/** The INSERT … SELECT of raiseNoShows: the NO_SHOW rows of up to `limit` entries after `cursor`, ids `prefix` + n. */
export function noShowsInsert(now: Date, limit: number, cursor: EntryCursor, scope: PassScope, prefix: string): SQL {
  const time = now.getTime();
  const after = sql`${MINUTE_MS} * coalesce(s.no_show_after_minutes, ${DEFAULT_ATTENDANCE_SETTINGS.noShowAfterMinutes})`;
  const from = Math.max(time - NO_SHOW_LOOKBACK_DAYS * DAY_MS, cursor.startAt);
  return sql`INSERT INTO attendance_exceptions (id, organization_id, location_id, employee_id, type, business_date,
        schedule_entry_id, shift_id, minutes, status, note, detected_at, resolved_at, resolved_by, updated_at)
      SELECT ${prefix} || row_number() OVER (ORDER BY e.start_at, e.id), e.organization_id, e.location_id, e.employee_id,
        'NO_SHOW', strftime('%Y-%m-%d', (e.start_at + e.utc_offset * ${MINUTE_MS}) / 1000, 'unixepoch'), e.id, NULL,
        (e.end_at - e.start_at) / ${MINUTE_MS}, 'OPEN', NULL, ${time}, NULL, NULL, ${time}
      FROM schedule_entries e LEFT JOIN attendance_settings s ON s.organization_id = e.organization_id
      WHERE e.is_draft = 0 AND e.deleted_at IS NULL
        AND e.start_at >= ${from} AND NOT (e.start_at = ${cursor.startAt} AND e.id <= ${cursor.id})
        AND e.start_at <= ${time} - ${after}
        AND e.published_at <= e.start_at + ${after}
        AND NOT EXISTS (SELECT 1 FROM attendance_exceptions x WHERE x.schedule_entry_id = e.id AND x.type = 'NO_SHOW'
          AND ${ONCE_PER_ENTRY})
        AND NOT EXISTS (SELECT 1 FROM shifts sh WHERE sh.employee_id = e.employee_id AND sh.end_at IS NULL
          AND sh.deleted_at IS NULL AND +sh.location_id = e.location_id AND sh.start_at <= e.start_at + ${after})
        AND NOT EXISTS (SELECT 1 FROM shifts sh WHERE sh.employee_id = e.employee_id AND sh.end_at > e.start_at
          AND sh.deleted_at IS NULL AND +sh.location_id = e.location_id AND sh.start_at <= e.start_at + ${after})
        AND NOT ${frozenHere(sql`e.organization_id`)}
        AND ${inPassScope(sql`e.organization_id`, scope)}
      ORDER BY e.start_at, e.id LIMIT ${limit}
      ON CONFLICT DO NOTHING`;
}
