import { staffMembers } from "@db/schema";
import { and, eq, inArray } from "drizzle-orm";
import { chunk, rowsPerStatement } from "@/data/chunk";
import type { Database, Statement } from "@/data/client";
import type { ConstraintProblem } from "@/data/write/constraint-problems";
import { businessDate } from "@/domain/local-time";
import { expandPermissions, type Principal } from "@/domain/permissions";
import { scheduleViolations, type Violation, type WorkSpan } from "@/domain/working-time/checks";
import { conflict, forbidden } from "@/problems/problem";
import { effectiveWorkingTimePack, workingTimeSettingStatement } from "./location-working-time.data";
import { type Neighbours, neighboursUnchanged, workingTimeUnchanged } from "./neighbours-guard.data";
import {
  type EntrySpanRow,
  entrySpan,
  mergeSpans,
  publishedEntriesStatement,
  type ShiftSpanRow,
  shiftSpan,
  workedShiftsStatement,
} from "./work-spans.data";

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

/** Ids per IN list: a statement binds them and a handful of other parameters. */
const IDS_PER_STATEMENT = rowsPerStatement(1, 8);

type WorkerRow = { id: string; birthDate: Date | null; optOut: { signedOn: string; withdrawnOn: string | null } | null };

/** The workers' facts the rules need: birthDate and the weekly-average opt-out. */
const workersStatement = (db: Database, organizationId: string, employeeIds: string[]) =>
  db
    .select({ id: staffMembers.id, birthDate: staffMembers.birthDate, optOut: staffMembers.workingTimeOptOut })
    .from(staffMembers)
    .where(and(eq(staffMembers.organizationId, organizationId), inArray(staffMembers.id, employeeIds)));

/**
 * What a check found, and what the write it judged must carry: `guards` for its batch (none when no pack judged
 * anything), failing it unless the neighbours judged are still as read — `alsoExcept`: entries the batch itself
 * writes before the guards run (a create's new id) — and `problem`, their refusal, listed among the batch's problems.
 */
export interface WorkingTimeJudgement {
  byEntry: Map<string, ListedViolation[]>;
  guards: (alsoExcept?: readonly string[]) => Statement[];
  problem: ConstraintProblem;
}

/** Workers per guard statement: each guard binds its workers' neighbours as one JSON list (D1's statement size). */
const WORKERS_PER_GUARD = 10;

/** The violations with `newIds` (entries a write would create: none exists yet) left out of their scheduleEntryIds. */
export const namingExisting = (violations: readonly ListedViolation[], newIds: ReadonlySet<string>): ListedViolation[] =>
  violations.map((v) => ({ ...v, scheduleEntryIds: v.scheduleEntryIds.filter((id) => !newIds.has(id)) }));

/** Each violation once (a rest between two planned spans is listed under both). */
export const distinctViolations = (byEntry: ReadonlyMap<string, readonly ListedViolation[]>): ListedViolation[] => [
  ...new Map([...byEntry.values()].flat().map((v) => [JSON.stringify(v), v])).values(),
];

/** A lost race's refusal: the worker's time changed while the write was judged; what it breaks now, judged again. */
const changedMeanwhile = (violations: ListedViolation[]) =>
  conflict(
    "WORKING_TIME_CONFLICT",
    "A worker's published entries or worked shifts changed while this write was judged against the location's " +
      `working-time rules; nothing was written. Judged again now, it breaks ${violations.length} rule(s)` +
      (violations.length ? ", listed in violations." : ": retry it."),
    { violations },
  );

/**
 * The working-time violations planned spans at a location would make among their workers' published entries and
 * worked shifts (rest, daily and weekly maximums, a minor's hours), by the location's pack in effect on each worker's
 * first planned date; none without a pack. Planned spans of one worker are judged together (a publish's drafts).
 * One round trip: the setting, and the workers, entries and shifts by chunked IN lists (D1's 100 parameters).
 */
export async function judgePlanned(
  db: Database,
  organizationId: string,
  locationId: string,
  planned: readonly PlannedSpan[],
  exceptEntryId = "",
): Promise<WorkingTimeJudgement> {
  const found = new Map<string, ListedViolation[]>();
  const problem = workingTimeUnchanged.about(async () =>
    changedMeanwhile(distinctViolations((await judgePlanned(db, organizationId, locationId, planned, exceptEntryId)).byEntry)),
  );
  const judgement = (judged: Neighbours[]): WorkingTimeJudgement => ({
    byEntry: found,
    guards: (alsoExcept = []) => judged.map((n) => neighboursUnchanged(db, n, [exceptEntryId, ...alsoExcept])),
    problem,
  });
  if (planned.length === 0) return judgement([]);
  const from = new Date(Math.min(...planned.map((p) => p.start.getTime())) - AROUND_MS);
  const to = new Date(Math.max(...planned.map((p) => p.end.getTime())) + AROUND_MS);
  const employeeIds = [...new Set(planned.map((p) => p.employeeId))];
  const chunks = chunk(employeeIds, IDS_PER_STATEMENT);
  const [settingRows, ...rest] = await db.batch([
    workingTimeSettingStatement(db, organizationId, locationId),
    ...chunks.map((ids) => workersStatement(db, organizationId, ids)),
    ...chunks.map((ids) => publishedEntriesStatement(db, organizationId, ids, from, to, exceptEntryId)),
    ...chunks.map((ids) => workedShiftsStatement(db, organizationId, ids, from, to)),
  ]);
  const setting = settingRows[0];
  if (!setting?.rulePack) return judgement([]);
  const workers = rest.slice(0, chunks.length).flat() as WorkerRow[];
  const entryRows = rest.slice(chunks.length, 2 * chunks.length).flat() as EntrySpanRow[];
  const shiftRows = rest.slice(2 * chunks.length).flat() as ShiftSpanRow[];
  const entries = entryRows.map(entrySpan);
  const worked = shiftRows.map((row) => shiftSpan(row));
  const plannedIds = new Set(planned.map((p) => p.id));
  const judgedIds: string[] = [];
  for (const employeeId of employeeIds) {
    const mine = planned.filter((p) => p.employeeId === employeeId);
    const pack = effectiveWorkingTimePack(setting, businessDate(mine[0]!.start, mine[0]!.utcOffset));
    if (!pack) continue;
    judgedIds.push(employeeId);
    const worker = workers.find((w) => w.id === employeeId);
    const candidates = mine.map((p) => entrySpan({ ...p, locationId, startAt: p.start, endAt: p.end }));
    const existing = entries.filter((e) => e.employeeId === employeeId && !plannedIds.has(e.id));
    const all = [
      ...mergeSpans(
        existing,
        worked.filter((w) => w.employeeId === employeeId),
      ),
      ...candidates,
    ];
    const kinds = new Map(all.map((span) => [span.id, span.kind]));
    const violations = scheduleViolations(
      pack,
      all,
      new Set(mine.map((p) => p.id)),
      { birthDate: worker?.birthDate ?? null, optOut: worker?.optOut ?? null },
      setting.schoolTerms,
    );
    for (const candidate of mine)
      found.set(
        candidate.id,
        violations.filter((v) => v.spanIds.includes(candidate.id)).map((v) => listedViolation(v, kinds)),
      );
  }
  return judgement(
    chunk(judgedIds, WORKERS_PER_GUARD).map((ids) => {
      const of = new Set(ids);
      return {
        organizationId,
        employeeIds: ids,
        from,
        to,
        entries: entryRows.filter((row) => of.has(row.employeeId)),
        shifts: shiftRows.filter((row) => of.has(row.employeeId)),
      };
    }),
  );
}

/** The violations one planned span of one worker makes (a create or an update of a published entry), and its guards. */
export async function judgePlannedSpan(
  db: Database,
  organizationId: string,
  locationId: string,
  planned: PlannedSpan,
  exceptEntryId = "",
): Promise<WorkingTimeJudgement & { violations: ListedViolation[] }> {
  const judged = await judgePlanned(db, organizationId, locationId, [planned], exceptEntryId);
  return { ...judged, violations: judged.byEntry.get(planned.id) ?? [] };
}

export type WorkingTimeOverrideInput = { reason: string } | undefined;

/** What an accepted override records on the entry: its reason, who, when and the violations it overrode. */
export type WorkingTimeOverrideRecord = {
  reason: string;
  by: string | null;
  at: string;
  violations: { rule: string; limit: number; actual: number; unit: string; source: string }[];
};

/** An override's record as one entry of a write keeps it: with that entry's own violations. */
export const overrideFor = (record: WorkingTimeOverrideRecord, violations: readonly ListedViolation[]): WorkingTimeOverrideRecord => ({
  ...record,
  violations: violations.map(({ rule, limit, actual, unit, source }) => ({ rule, limit, actual, unit, source })),
});

/**
 * Refuses a write whose violations are not overridden (409 WORKING_TIME_CONFLICT listing them), or overridden by a
 * caller without WORKING_TIME_OVERRIDE (403); answers what the entry records (null: nothing to override).
 * `refuse: false`: a write that leaves out what breaks a rule instead (a bulk copy) answers null without an override.
 */
export function judgeViolations(
  violations: readonly ListedViolation[],
  override: WorkingTimeOverrideInput,
  principal: Principal,
  { refuse = true }: { refuse?: boolean } = {},
): WorkingTimeOverrideRecord | null {
  if (violations.length === 0) return null;
  if (!override && !refuse) return null;
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
