import { staffMembers } from "@db/schema";
import { and, eq } from "drizzle-orm";
import type { Database } from "@/data/client";
import { businessDate } from "@/domain/local-time";
import { expandPermissions, type Principal } from "@/domain/permissions";
import { scheduleViolations, type Violation, type WorkSpan } from "@/domain/working-time/checks";
import { conflict, forbidden } from "@/problems/problem";
import { effectiveWorkingTimePack, workingTimeSettingStatement } from "./location-working-time.data";
import { entrySpan, mergeSpans, publishedEntriesStatement, shiftSpan, workedShiftsStatement } from "./work-spans.data";

const DAY_MS = 86_400_000;
/** Spans this far either side of a planned one: its calendar week, and the rest before and after it. */
const AROUND_MS = 8 * DAY_MS;

/** A violation as the API lists it: the entries (and worked shifts) involved. */
export type ListedViolation = Omit<Violation, "spanIds" | "date"> & { date: string; scheduleEntryIds: string[]; shiftIds: string[] };

export const listedViolation = (violation: Violation, kinds: ReadonlyMap<string, WorkSpan["kind"]>): ListedViolation => {
  const { spanIds, ...rest } = violation;
  return {
    ...rest,
    // The new entry of a create has no id yet ("").
    scheduleEntryIds: spanIds.filter((id) => id !== "" && kinds.get(id) !== "SHIFT"),
    shiftIds: spanIds.filter((id) => kinds.get(id) === "SHIFT"),
  };
};

export type PlannedSpan = { id: string; employeeId: string; start: Date; end: Date; utcOffset: number };

/** The worker's facts the rules need: birthDate and the weekly-average opt-out. */
export const workerStatement = (db: Database, organizationId: string, employeeId: string) =>
  db
    .select({ birthDate: staffMembers.birthDate, optOut: staffMembers.workingTimeOptOut })
    .from(staffMembers)
    .where(and(eq(staffMembers.organizationId, organizationId), eq(staffMembers.id, employeeId)));

/**
 * The working-time violations planned spans of one worker at a location would make among their published entries and
 * worked shifts (rest, daily and weekly maximums, a minor's hours), by the location's pack in effect on the first
 * planned date; none without a pack. `others` are further planned spans judged with them (a publish's drafts).
 */
export async function plannedViolations(
  db: Database,
  organizationId: string,
  locationId: string,
  planned: readonly PlannedSpan[],
  exceptEntryId = "",
): Promise<ListedViolation[]> {
  const first = planned[0];
  if (!first) return [];
  const employeeId = first.employeeId;
  const from = new Date(Math.min(...planned.map((p) => p.start.getTime())) - AROUND_MS);
  const to = new Date(Math.max(...planned.map((p) => p.end.getTime())) + AROUND_MS);
  const [[setting], [worker], entries, worked] = await db.batch([
    workingTimeSettingStatement(db, organizationId, locationId),
    workerStatement(db, organizationId, employeeId),
    publishedEntriesStatement(db, organizationId, employeeId, from, to, exceptEntryId),
    workedShiftsStatement(db, organizationId, [employeeId], from, to),
  ]);
  const pack = effectiveWorkingTimePack(setting, businessDate(first.start, first.utcOffset));
  if (!pack) return [];
  const candidates = planned.map((p) => ({ ...entrySpan({ ...p, locationId, startAt: p.start, endAt: p.end }) }));
  const plannedIds = new Set(planned.map((p) => p.id));
  const existing = entries.filter((e) => !plannedIds.has(e.id)).map(entrySpan);
  const all = [
    ...mergeSpans(
      existing,
      worked.map((w) => shiftSpan(w)),
    ),
    ...candidates,
  ];
  const kinds = new Map(all.map((s) => [s.id, s.kind]));
  const violations = scheduleViolations(
    pack,
    all,
    plannedIds,
    { birthDate: worker?.birthDate ?? null, optOut: worker?.optOut ?? null },
    setting?.schoolTerms ?? [],
  );
  return violations.map((v) => listedViolation(v, kinds));
}

export type WorkingTimeOverrideInput = { reason: string } | undefined;

/** What an accepted override records on the entry: its reason, who, when and the violations it overrode. */
export type WorkingTimeOverrideRecord = {
  reason: string;
  by: string | null;
  at: string;
  violations: { rule: string; limit: number; actual: number; unit: string; source: string }[];
};

/**
 * Refuses a write whose violations are not overridden (409 WORKING_TIME_CONFLICT listing them), or overridden by a
 * caller without WORKING_TIME_OVERRIDE (403); answers what the entry records (null: nothing to override).
 */
export function judgeViolations(
  violations: readonly ListedViolation[],
  override: WorkingTimeOverrideInput,
  principal: Principal,
): WorkingTimeOverrideRecord | null {
  if (violations.length === 0) return null;
  if (!override)
    throw conflict("WORKING_TIME_CONFLICT", `The entry breaks ${violations.length} working-time rule(s) of the location's pack.`, {
      violations,
    });
  if (!expandPermissions(principal.permissions).has("WORKING_TIME_OVERRIDE"))
    throw forbidden("Overriding working-time rules needs the WORKING_TIME_OVERRIDE permission.");
  return {
    reason: override.reason,
    by: principal.staffMemberId,
    at: new Date().toISOString(),
    violations: violations.map(({ rule, limit, actual, unit, source }) => ({ rule, limit, actual, unit, source })),
  };
}
