// The SQL the baseline sends for clock-in, clock-out and shift-state: our Worker's, from this run's recording of its
// traced requests (recording.js), by position. The bound values, which the baseline computes itself, are listed here.

import { fromRecording, statement, trip } from "./recording.js";

/**
 * Clock-in and clock-out: ONE read batch (the punch context, src/features/time-tracking), 15 statements on a clock-in,
 * 20 on a clock-out, bound in this order:
 *  1. staff member [org, staff]; 2. location [org, location]; 3. role [org, roleId or '']; 4. the body's cost code
 *  [org, costCodeId or '']; 5. open shift [org, staff]; 6. its breaks [org, staff]; 7. latest event [org, staff, 1];
 *  8. the location's break types [org, location]; 9. locked days near the instant or on the open shift's date
 *  [org, location, from, to, org, staff]; 10. wage rates in effect by the day after [org, staff, to]; 11. every custom
 *  field [org]; 12. the Idempotency-Key [scope, key] ('' and '' without one); 13. a kiosk's photo [org, photoId or ''];
 *  then attendance's: 14. settings [org]; 15. published entries near [staff, around − 72 h, around + 2 h, location,
 *  org, 0]; a clock-out also 16. pay rule sets [org, location], 17. the workday's closed shifts [staff, org, staff], and
 *  the working-time pipeline's (src/data/working-time/worked-shift-findings): 18. the location's pack setting with its
 *  versions [org, location]; 19. the member's other closed shifts starting within 8 days of the instant [staff, org,
 *  instant − 8 d, instant + 8 d, ''] (no shift excepted); 20. their minutes by business date from the instant's UTC date
 *  − (LONGEST_REFERENCE_DAYS + 1) days [staff, org, that date, ''].
 */
export let CLOCK_IN_READS;
export let CLOCK_OUT_READS;

/**
 * Clock-in's write batch after the principal guard (write-guard.js): the shift, whose organization_id, employee_id and
 * location_id turn NULL on a locked day, an overlapping shift, an approved timesheet or closed period [id, org,
 * location, date, staff, org, staff, id, startAt, then the pay-freeze guard (frozenGuard), then the 26 columns from
 * role_id, wage_source "RESOLVED" among them], and its clock_in event (18 values).
 */
export let CLOCK_IN_WRITES;
/**
 * Clock-out's: the clock_out event, whose organization_id, shift_id and employee_id are guards [id, org, location,
 * date, shift, org, shift, org, the shift's updated_at, 7 columns from kind, the verdict's pay-freeze guard, flags,
 * key, source, device, photo], and the shift closed [end, durations, flags, source, device, then the custom fields'
 * guard: org, fingerprint, values, then 0, updatedAt, org, shift].
 */
export let CLOCK_OUT_WRITES;
/** An attendance exception raised by a punch (UNSCHEDULED_SHIFT, LATE_CLOCK_IN, …), once: 15 values. */
export let EXCEPTION_WRITE;
/** With an Idempotency-Key, first after the guard: its expired use dropped [scope, key, now], the answer stored (8 values). */
export let IDEMPOTENCY_WRITES;
/**
 * Shift-state: ONE read batch of 6: staff member [org, staff]; location [org, location]; the open shift and the
 * shifts of the 3 business dates around today [org, staff, org, staff, d−1, d, d+1]; their breaks (same values);
 * enabled break types [org, location, 1]; the open shift's lock [org, org, staff].
 */
export let SHIFT_STATE_READS;

fromRecording(["clock-in", "clock-out", "shift-state", "clock-in with Idempotency-Key"], (r) => {
  // The bench schedules nobody: every clock-in raises UNSCHEDULED_SHIFT in its write batch.
  CLOCK_IN_READS = trip(r, "clock-in", 0, 15);
  const clockInWrites = trip(r, "clock-in", 1, 4);
  CLOCK_IN_WRITES = clockInWrites.slice(1, 3);
  EXCEPTION_WRITE = statement(r, "clock-in", 1, 3, 'insert into "attendance_exceptions"');
  CLOCK_OUT_READS = trip(r, "clock-out", 0, 20);
  CLOCK_OUT_WRITES = trip(r, "clock-out", 1, 3).slice(1);
  SHIFT_STATE_READS = trip(r, "shift-state", 0, 6);
  trip(r, "clock-in with Idempotency-Key", 1, 6);
  IDEMPOTENCY_WRITES = [
    statement(r, "clock-in with Idempotency-Key", 1, 1, 'delete from "idempotency_keys"'),
    statement(r, "clock-in with Idempotency-Key", 1, 2, 'insert into "idempotency_keys"'),
  ];
  statement(r, "clock-in", 1, 1, 'insert into "shifts"');
  statement(r, "clock-out", 1, 2, 'update "shifts"');
});
