import { locations, payRuleSets, payRuleSetUses } from "@db/schema";
import { and, desc, eq, isNull, lte, sql } from "drizzle-orm";
import type { Database } from "@/data/client";
import { organizationNow } from "@/data/clock";
import { newId } from "@/data/ids";
import { inOrganization } from "@/data/tenancy";
import { whenDuplicate } from "@/data/write/constraint-problems";
import { guard } from "@/data/write/guard";
import { guardedBatch, type Writer } from "@/data/write/guarded-batch";
import {
  DEFAULT_RULES,
  fillFromPreset,
  type MealRequest,
  mealRequestProblems,
  mealRulesOf,
  type PayPreset,
  type PayRules,
  payRuleProblems,
} from "@/domain/pay-rules";
import { type IfMatch, nextVersionAfter, requireVersion } from "@/platform/http/conditional";
import { conflict, type FieldError, invalidField, notFound, ProblemError, preconditionFailed, validationFailed } from "@/problems/problem";
import type { PayRuleSetCreateInput, PayRuleSetPatchInput } from "@/wire/pay-rule-set.schemas";

type RuleSetRow = typeof payRuleSets.$inferSelect;

/**
 * A closed period froze the date or a later one (every date of every workweek overlapping it): a set taking effect
 * then (or moved from or to it) would change which set governs a day already paid, so it is refused like a used one.
 */
const closedOnOrAfter = (organizationId: string, date: string) =>
  sql`EXISTS (SELECT 1 FROM pay_periods WHERE organization_id = ${organizationId} AND frozen_to >= ${date} AND status = 'CLOSED')`;

export const rulesInUse = () =>
  conflict(
    "PAY_RULES_IN_USE",
    "A closed pay period used this rule set: it can no longer change. Add a newer set (a later effectiveFrom) instead.",
  );

const versionTaken = () =>
  conflict("PAY_RULES_VERSION_TAKEN", "Another rule set of the same scope (the location, or the organization) takes effect on that date.");

/*
 * A rule set a closed period used is immutable, checked in the write itself (no read before it decides): each write
 * of a set guards its name, and the version index refuses a second set of the scope taking effect on one date.
 */

/**
 * pay_rule_sets.name: the name, NULL once a close recorded the set in pay_rule_set_uses, or when the set's date
 * (before or after the write) is on or before the end of a closed period.
 */
const unusedByClosedPeriods = guard({
  column: payRuleSets.name,
  problem: rulesInUse,
  sql: (id: string, name: string, organizationId: string, effectiveFrom: string) =>
    sql`(SELECT ${name} WHERE NOT EXISTS (SELECT 1 FROM ${payRuleSetUses} WHERE ${payRuleSetUses.ruleSetId} = ${id})
    AND NOT ${closedOnOrAfter(organizationId, effectiveFrom)})`,
});

const problems = [unusedByClosedPeriods, whenDuplicate(payRuleSets, versionTaken)];

/**
 * One workweek and one workday per employee (29 CFR 778.103–778.105): a location's set takes the boundaries of the
 * organization's set in force on its effectiveFrom (the default Monday/00:00 without one). Those it leaves out are
 * filled in; one it names otherwise is a 422 naming the field. Pay reads the boundaries of the organization's sets
 * only, so a later change of the organization's workweek applies at every location.
 */
async function withOrganizationsBoundaries(
  db: Database,
  organizationId: string,
  locationId: string | null,
  effectiveFrom: string,
  rules: PayRules,
  named: Partial<Pick<PayRules, "workweekStartsOn" | "workdayStartsAt">>,
): Promise<PayRules> {
  if (locationId === null) return rules;
  const [own] = await db
    .select({ workweekStartsOn: payRuleSets.workweekStartsOn, workdayStartsAt: payRuleSets.workdayStartsAt })
    .from(payRuleSets)
    .where(
      and(
        eq(payRuleSets.organizationId, organizationId),
        isNull(payRuleSets.locationId),
        isNull(payRuleSets.deletedAt),
        lte(payRuleSets.effectiveFrom, effectiveFrom),
      ),
    )
    .orderBy(desc(payRuleSets.effectiveFrom), desc(payRuleSets.id))
    .limit(1);
  const boundaries = {
    workweekStartsOn: (own?.workweekStartsOn ?? DEFAULT_RULES.workweekStartsOn) as PayRules["workweekStartsOn"],
    workdayStartsAt: own?.workdayStartsAt ?? DEFAULT_RULES.workdayStartsAt,
  };
  const errors = (["workweekStartsOn", "workdayStartsAt"] as const)
    .filter((field) => named[field] !== undefined && named[field] !== boundaries[field])
    .map((field) => ({
      path: field,
      message: `must be the organization's (${boundaries[field]} from its set in force on ${effectiveFrom}) or left out: a location's set cannot change the workweek or the workday`,
    }));
  if (errors.length) throw organizationsWorkweekOnly(errors);
  return { ...rules, ...boundaries };
}

const organizationsWorkweekOnly = (errors: FieldError[]) =>
  new ProblemError(
    422,
    "PAY_RULES_NOT_ORGANIZATIONS_WORKWEEK",
    `One workweek and one workday per employee come from the organization's rule set: ${errors.map((e) => e.path).join(", ")} ${errors.length > 1 ? "differ" : "differs"} from it. Leave the field out on a location's set.`,
    { errors },
  );

/** The set's rule columns from filled rules, after checking them (400 naming each field). */
function ruleColumns(preset: PayPreset, rules: PayRules, effectiveFrom: string, meals: MealRequest) {
  const fieldProblems = [
    ...payRuleProblems({ preset, effectiveFrom, rules, mealBreak: meals.mealBreak }),
    ...mealRequestProblems(meals, rules),
  ];
  if (fieldProblems.length) throw validationFailed(fieldProblems);
  const { rounding, mealBreaks, ...rest } = rules;
  return {
    ...rest,
    mealBreaks: [...mealBreaks],
    preset,
    effectiveFrom,
    roundingIncrementMinutes: rounding.incrementMinutes,
    roundingMode: rounding.mode,
  };
}

const rulesOfRow = (row: RuleSetRow): PayRules => ({
  workweekStartsOn: row.workweekStartsOn as PayRules["workweekStartsOn"],
  workdayStartsAt: row.workdayStartsAt,
  dailyOvertimeAfterMinutes: row.dailyOvertimeAfterMinutes,
  dailyDoubleTimeAfterMinutes: row.dailyDoubleTimeAfterMinutes,
  weeklyOvertimeAfterMinutes: row.weeklyOvertimeAfterMinutes,
  seventhConsecutiveDay: row.seventhConsecutiveDay,
  overtimeMultiplier: row.overtimeMultiplier,
  doubleTimeMultiplier: row.doubleTimeMultiplier,
  rounding: { incrementMinutes: row.roundingIncrementMinutes, mode: row.roundingMode as PayRules["rounding"]["mode"] },
  mealBreaks: row.mealBreaks,
  mealPenaltyHours: row.mealPenaltyHours,
});

export async function findRuleSet(db: Database, organizationId: string, id: string): Promise<RuleSetRow> {
  const [row] = await db
    .select()
    .from(payRuleSets)
    .where(and(eq(payRuleSets.organizationId, organizationId), eq(payRuleSets.id, id), isNull(payRuleSets.deletedAt)));
  if (!row) throw notFound("Pay rule set");
  return row;
}

export const listRuleSets = (db: Database, organizationId: string, locationId?: string) =>
  db
    .select()
    .from(payRuleSets)
    .where(
      and(
        eq(payRuleSets.organizationId, organizationId),
        isNull(payRuleSets.deletedAt),
        locationId === undefined ? undefined : eq(payRuleSets.locationId, locationId),
      ),
    )
    .orderBy(payRuleSets.scopeKey, payRuleSets.effectiveFrom);

async function requireLocation(db: Database, organizationId: string, locationId: string) {
  const [location] = await db
    .select({ id: locations.id })
    .from(locations)
    .where(and(inOrganization(locations, organizationId), eq(locations.id, locationId)));
  if (!location) throw invalidField("locationId", "no location with that id in this organization");
}

export async function createRuleSet(
  writer: Writer,
  organizationId: string,
  body: PayRuleSetCreateInput,
  wire: (row: RuleSetRow) => unknown,
) {
  const { db } = writer;
  const { name, locationId = null, effectiveFrom, preset, ...request } = body;
  if (locationId) await requireLocation(db, organizationId, locationId);
  const rules = await withOrganizationsBoundaries(db, organizationId, locationId, effectiveFrom, fillFromPreset(preset, request), request);
  const columns = ruleColumns(preset, rules, effectiveFrom, request);
  const now = await organizationNow({ ...writer, organizationId });
  const row: RuleSetRow = {
    id: newId(now.getTime()),
    organizationId,
    locationId,
    scopeKey: locationId ?? "",
    name,
    ...columns,
    createdAt: now,
    updatedAt: now,
    deletedAt: null,
  };
  const guarded = { ...row, name: unusedByClosedPeriods.sql(row.id, name, organizationId, effectiveFrom) as unknown as string };
  await guardedBatch(writer, [db.insert(payRuleSets).values(guarded)], problems, {
    events: [{ type: "pay_rule_set.created", organizationId, occurredAt: now, data: wire(row) }],
  });
  return row;
}

/** PATCH: the fields named change, the others keep their values (a preset named fills nothing). */
export async function patchRuleSet(
  writer: Writer,
  organizationId: string,
  id: string,
  body: PayRuleSetPatchInput,
  ifMatch: IfMatch,
  wire: (row: RuleSetRow) => unknown,
) {
  const { db } = writer;
  const was = await findRuleSet(db, organizationId, id);
  requireVersion(ifMatch, was);
  const { name, effectiveFrom, preset, rounding, mealBreak, mealBreaks, mealPenaltyHours, ...named } = body;
  const current = rulesOfRow(was);
  const defined = Object.fromEntries(Object.entries(named).filter(([, v]) => v !== undefined));
  const meals = { mealBreak, mealBreaks, mealPenaltyHours };
  const patched: PayRules = { ...current, ...defined, rounding: { ...current.rounding, ...rounding }, ...mealRulesOf(current, meals) };
  const date = effectiveFrom ?? was.effectiveFrom;
  const rules = await withOrganizationsBoundaries(db, organizationId, was.locationId, date, patched, named);
  const columns = ruleColumns((preset ?? was.preset) as PayPreset, rules, date, meals);
  const now = nextVersionAfter(was, await organizationNow({ ...writer, organizationId }));
  const row: RuleSetRow = { ...was, ...columns, name: name ?? was.name, updatedAt: now };
  const earliest = row.effectiveFrom < was.effectiveFrom ? row.effectiveFrom : was.effectiveFrom;
  await write(
    writer,
    was,
    { ...columns, name: unusedByClosedPeriods.sql(id, row.name, organizationId, earliest), updatedAt: now },
    "pay_rule_set.updated",
    wire(row),
  );
  return row;
}

export async function deleteRuleSet(
  writer: Writer,
  organizationId: string,
  id: string,
  ifMatch: IfMatch,
  wire: (row: RuleSetRow) => unknown,
) {
  const was = await findRuleSet(writer.db, organizationId, id);
  requireVersion(ifMatch, was);
  const now = nextVersionAfter(was, await organizationNow({ ...writer, organizationId }));
  const row: RuleSetRow = { ...was, updatedAt: now, deletedAt: now };
  await write(
    writer,
    was,
    { name: unusedByClosedPeriods.sql(id, was.name, organizationId, was.effectiveFrom), updatedAt: now, deletedAt: now },
    "pay_rule_set.deleted",
    wire(row),
  );
  return row;
}

/** The update, only of the version read (a concurrent change makes it a 412 rather than a lost update). */
async function write(
  writer: Writer,
  was: RuleSetRow,
  set: Partial<Record<keyof RuleSetRow, unknown>>,
  type: "pay_rule_set.updated" | "pay_rule_set.deleted",
  data: unknown,
) {
  const { db } = writer;
  const [result] = await guardedBatch(
    writer,
    [
      db
        .update(payRuleSets)
        .set(set as Partial<RuleSetRow>)
        .where(and(eq(payRuleSets.id, was.id), eq(payRuleSets.updatedAt, was.updatedAt), isNull(payRuleSets.deletedAt))),
    ],
    problems,
    { events: [{ type, organizationId: was.organizationId, data, whenChanged: true }] },
  );
  if (result.meta.changes === 0) throw preconditionFailed();
}
