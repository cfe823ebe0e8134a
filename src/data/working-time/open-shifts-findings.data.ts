import { locationWorkingTime, shifts, staffMembers } from "@db/schema";
import { and, isNotNull, isNull, type SQL, sql } from "drizzle-orm";
import type { Database } from "@/data/client";
import type { AttendanceFinding } from "@/domain/attendance";
import { LONGEST_REFERENCE_DAYS } from "@/domain/working-time/packs";
import { settingColumns } from "./location-working-time.data";
import { type ShiftSpanRow, shiftSpanColumns } from "./work-spans.data";
import {
  AROUND_MS,
  type JudgedShift,
  type WorkingTimeSetting,
  workedShiftFindings,
  workedSince,
  workerOf,
  workingTimeContext,
} from "./worked-shift-findings.data";

/*
 * The worked-shift pipeline (worked-shift-findings.data) for many open shifts closed together (the Cron's automatic
 * clock-out): the same reads, made once for a whole chunk of shifts (four statements, whatever its size), keyed on
 * the shifts' ids, then handed to the same pure judgement per shift.
 */

const DAY_SECONDS = 86_400;

/** `shifts` (the outer row) is a member's whose shift in `shiftIds` is at a location with a working-time setting. */
const ofJudgedMember = (shiftIds: SQL, also: SQL) => sql`EXISTS (SELECT 1 FROM shifts d
  WHERE d.id IN (${shiftIds}) AND d.employee_id = ${shifts.employeeId} AND d.organization_id = ${shifts.organizationId}
    AND EXISTS (SELECT 1 FROM location_working_time w WHERE w.location_id = d.location_id) AND ${also})`;

/**
 * What judging the shifts `shiftIds` (a subquery of their ids) reads, in one batch: their locations' settings with
 * versions, their workers' facts, the workers' closed shifts near them (from 8 days before their start to 8 days after
 * `now`, the latest they can close) and the workers' minutes by date over the longest reference period. Only for
 * shifts at a location with a setting: a chunk without any reads no rows.
 */
export function openShiftsWorkingTimeReads(db: Database, shiftIds: SQL, now: Date) {
  const judged = sql`SELECT location_id, organization_id, employee_id FROM shifts WHERE id IN (${shiftIds})`;
  const sinceSeconds = (LONGEST_REFERENCE_DAYS + 1) * DAY_SECONDS;
  return [
    db
      .select(settingColumns())
      .from(locationWorkingTime)
      .where(
        sql`(${locationWorkingTime.locationId}, ${locationWorkingTime.organizationId}) IN (SELECT location_id, organization_id FROM (${judged}))`,
      ),
    db
      .select({
        id: staffMembers.id,
        organizationId: staffMembers.organizationId,
        birthDate: staffMembers.birthDate,
        optOut: staffMembers.workingTimeOptOut,
      })
      .from(staffMembers)
      .where(sql`(${staffMembers.id}, ${staffMembers.organizationId}) IN (SELECT employee_id, organization_id FROM (${judged}))`),
    db
      .select({ ...shiftSpanColumns, organizationId: shifts.organizationId })
      .from(shifts)
      .where(
        and(
          isNotNull(shifts.endAt),
          isNull(shifts.deletedAt),
          sql`${shifts.startAt} <= ${now.getTime() + AROUND_MS}`,
          ofJudgedMember(shiftIds, sql`${shifts.startAt} >= d.start_at - ${AROUND_MS}`),
        ),
      ),
    db
      .select({
        employeeId: shifts.employeeId,
        organizationId: shifts.organizationId,
        date: shifts.businessDate,
        minutes: sql<number>`SUM(${shifts.duration} - ${shifts.totalPaidBreaks} - ${shifts.totalUnpaidBreaks})`,
      })
      .from(shifts)
      .where(
        and(
          isNotNull(shifts.endAt),
          isNull(shifts.deletedAt),
          ofJudgedMember(shiftIds, sql`${shifts.businessDate} >= date(d.start_at / 1000 - ${sinceSeconds}, 'unixepoch')`),
        ),
      )
      .groupBy(shifts.organizationId, shifts.employeeId, shifts.businessDate),
  ] as const;
}

type Rows<T> = readonly T[];
export type OpenShiftsWorkingTime = [
  Rows<WorkingTimeSetting & { locationId: string; organizationId: string }>,
  Rows<{ id: string; organizationId: string; birthDate: Date | null; optOut: { signedOn: string; withdrawnOn: string | null } | null }>,
  Rows<ShiftSpanRow & { organizationId: string }>,
  Rows<{ employeeId: string; organizationId: string; date: string; minutes: number }>,
];

const keyOf = (organizationId: string, id: string) => `${organizationId}/${id}`;

function grouped<T>(rows: Rows<T>, key: (row: T) => string): Map<string, T[]> {
  const map = new Map<string, T[]>();
  for (const row of rows) map.set(key(row), [...(map.get(key(row)) ?? []), row]);
  return map;
}

/**
 * The judge of a chunk's shifts from what openShiftsWorkingTimeReads read: each shift's findings as it closes at
 * `shift.endAt`, reading exactly what the pipeline reads for one shift (the nearby shifts within 8 days of the close,
 * the minutes by date from workedSince) — workedShiftFindings, the same rules as a clock-out's.
 */
export function openShiftsJudge([settings, facts, nearby, byDate]: OpenShiftsWorkingTime) {
  const settingByLocation = new Map(settings.map((s) => [keyOf(s.organizationId, s.locationId), s]));
  const factsByMember = new Map(facts.map((f) => [keyOf(f.organizationId, f.id), f]));
  const nearbyByMember = grouped(nearby, (s) => keyOf(s.organizationId, s.employeeId));
  const datesByMember = grouped(byDate, (d) => keyOf(d.organizationId, d.employeeId));
  return (shift: JudgedShift & { organizationId: string }): AttendanceFinding[] => {
    const setting = settingByLocation.get(keyOf(shift.organizationId, shift.locationId));
    if (!setting) return [];
    const member = keyOf(shift.organizationId, shift.employeeId);
    const close = shift.endAt.getTime();
    const near = (nearbyByMember.get(member) ?? []).filter((s) => Math.abs(s.startAt.getTime() - close) <= AROUND_MS && s.id !== shift.id);
    const since = workedSince(shift.endAt);
    const dates = (datesByMember.get(member) ?? []).filter((d) => d.date >= since);
    return workedShiftFindings(workingTimeContext([setting], near, dates), shift, workerOf(factsByMember.get(member)));
  };
}
