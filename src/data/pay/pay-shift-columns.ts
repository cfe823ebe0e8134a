import { shifts } from "@db/schema";
import { sql } from "drizzle-orm";
import { EARLY_CLOCK_IN_WINDOW_MINUTES, LONGEST_ENTRY_MINUTES } from "@/domain/attendance";

/** A shift's columns as pay reads them (pay, attendance and the projection alike). */
export const payShiftColumns = {
  id: shifts.id,
  employeeId: shifts.employeeId,
  locationId: shifts.locationId,
  businessDate: shifts.businessDate,
  startAt: shifts.startAt,
  endAt: shifts.endAt,
  utcOffset: shifts.utcOffset,
  hourlyWage: shifts.hourlyWage,
  breaks: shifts.breaksJson,
};

const MINUTE_MS = 60_000;

/**
 * The published schedule entry a shift answers, as attendance measures it (domain/attendance entryWorkedAt): an entry
 * of the staff member at the shift's location whose [start − the early clock-in window, end) holds the shift's start,
 * the one starting nearest to it (the earlier, then the lower id, on a tie); with its scheduled minutes — its length
 * less the durations of the unpaid break types it plans. Read with the shift, by the entries' index of the staff
 * member's starts: no statement of its own. The shift's columns are named with their table: drizzle writes a single
 * table's columns bare, which inside the subquery would name the entry's.
 */
const scheduledEntry = sql<{ entryId: string; minutes: number } | null>`(SELECT json_array(e.id,
      max(0, (e.end_at - e.start_at) / ${MINUTE_MS} - coalesce((SELECT sum(bt.duration_minutes) FROM json_each(e.breaks) AS named
        INNER JOIN break_types AS bt ON bt.id = named.value
        WHERE bt.location_id = e.location_id AND bt.paid = 0 AND bt.deleted_at IS NULL), 0)))
    FROM schedule_entries AS e
    WHERE e.employee_id = shifts.employee_id
      AND e.start_at >= shifts.start_at - ${LONGEST_ENTRY_MINUTES * MINUTE_MS}
      AND e.start_at <= shifts.start_at + ${EARLY_CLOCK_IN_WINDOW_MINUTES * MINUTE_MS}
      AND e.end_at > shifts.start_at
      AND e.location_id = shifts.location_id AND e.organization_id = shifts.organization_id
      AND e.is_draft = 0 AND e.deleted_at IS NULL
    ORDER BY abs(shifts.start_at - e.start_at), e.start_at, e.id LIMIT 1)`
  .mapWith((stored: string) => {
    const [entryId, minutes] = JSON.parse(stored) as [string, number];
    return { entryId, minutes };
  })
  .as("scheduled_entry");

/** payShiftColumns with the schedule entry the shift answers (what pay's reporting-time and call-in rules read). */
export const scheduledPayShiftColumns = { ...payShiftColumns, scheduled: scheduledEntry };
