import { scheduleEntries } from "@db/schema";
import { type SQL, sql } from "drizzle-orm";
import type { Database, Statement } from "@/data/client";
import { newId } from "@/data/ids";
import { inJsonList } from "@/data/json-list";
import type { EventSpec } from "@/data/outbox/outbox";
import { sqlNumber, sqlText } from "@/data/sql-literal";
import { type AddedPremiumBand, addedBandSpan, type PremiumOwed } from "@/domain/fair-workweek/change-premium";
import type { ChangeRules } from "@/domain/fair-workweek/schedule-change";
import { addDays } from "@/domain/local-time";

/**
 * An entry without an ADDED change of its own, every added_* column of schedule_entries (drizzle/schema/schedules.ts)
 * null: what a copy of an entry is written with (its source's change is not its).
 */
export const NO_ADDED_CHANGE = {
  addedChangeId: null,
  addedEmployeeId: null,
  addedNoticeMinutes: null,
  addedMinutes: null,
  addedEntryDate: null,
  addedRulePack: null,
  addedPremiumHours: null,
  addedPremiumAmount: null,
  addedPremiumRule: null,
  addedAt: null,
} as const satisfies Partial<typeof scheduleEntries.$inferInsert>;

/** The ADDED change's columns, as a publish's UPDATE sets them. */
type AddedColumns = keyof typeof NO_ADDED_CHANGE;

/**
 * How a publish at `location` (instant `at`) records the ADDED change of every entry it makes public
 * whose start is inside the pack's notice window as seen at `at` (the rows changeRowsOf makes for the same entries:
 * test/features/fair-workweek/schedule-changes-publish.test.ts): on the entry's own row, by the publish's own UPDATE of its drafts (`set`,
 * columns schedule_entries.added_*) and, for the entries of applied assignments the same batch inserts published, by
 * `assignedStatements` after those inserts; read through the view schedule_change_log. No row of its own per change:
 * a week published inside the window writes no second row, key and index entries per entry (issue 33's bench).
 *
 * Priced in SQL by the pack's ADDED bands (domain/fair-workweek addedPremiumBands), first matching band first. Each
 * change's id is one newId(at)'s first ten bytes (its millisecond, version, per-isolate counter and random bits) and
 * the last six of its entry's id (48 random bits of that UUIDv7: two entries of a publish share them with a
 * probability of about n² / 2⁴⁹, 2 × 10⁻⁷ for 10,000 entries): ids sort after every id made before and before every
 * id made after them in this isolate. And ONE `schedule_changes.recorded` event for them all (the publish's range,
 * instant, number of changes and premiums in total; none when it recorded none).
 */
export function publishedAdditions(
  db: Database,
  organizationId: string,
  locationId: string,
  rules: ChangeRules,
  at: Date,
  dates: { startDate: string; endDate: string },
): { set: Record<AddedColumns, SQL>; assignedStatements: (entryIds: string[]) => Statement[]; events: EventSpec[] } {
  const now = at.getTime();
  const prefix = newId(now).slice(0, 24);
  // Whole minutes of notice under noticeDays days: the start is less than that many minutes after `at`.
  const windowEnd = now + Math.ceil(rules.noticeDays * 24 * 60) * 60_000;
  const inside = sql`start_at < ${sqlNumber(windowEnd)}`;
  const ifInside = (value: SQL) => sql`CASE WHEN ${inside} THEN ${value} END`;
  const notice = sql`max(0, (start_at - ${sqlNumber(now)}) / 60000)`;
  const minutes = sql`CAST(round((end_at - start_at) / 60000.0) AS INTEGER)`;
  const byBand = (field: keyof PremiumOwed) => premiumByBand(rules.addedBands, inside, now, field);
  const set = {
    addedChangeId: ifInside(sql`${sqlText(prefix)} || substr(id, 25)`),
    addedEmployeeId: ifInside(sql`employee_id`),
    addedNoticeMinutes: ifInside(notice),
    addedMinutes: ifInside(minutes),
    addedEntryDate: ifInside(sql`date((start_at + utc_offset * 60000) / 1000, 'unixepoch')`),
    addedRulePack: ifInside(sqlText(rules.rulePack)),
    addedPremiumHours: byBand("hours"),
    addedPremiumAmount: byBand("amount"),
    addedPremiumRule: byBand("rule"),
    addedAt: ifInside(sqlNumber(now)),
  };
  const assignedStatements = (entryIds: string[]): Statement[] =>
    entryIds.length === 0
      ? []
      : [
          db
            .update(scheduleEntries)
            .set(set)
            .where(sql`${inJsonList(scheduleEntries.id, entryIds)} AND published_at = ${now} AND is_draft = 0 AND added_change_id IS NULL`),
        ];
  // One event for all of them (as the publish records one schedule.published for all its entries), none when none.
  // Read on schedule_entries_added_date alone (its last columns are the premiums): the publish's dates, two days wider
  // each side for an entry whose own offset puts it on another local date (offsets run from −12:00 to +14:00, so an
  // entry's date and the location's differ by up to 26 hours), and this publish's ids.
  const summary = sql`(SELECT json_object('locationId', ${locationId}, 'startDate', ${dates.startDate}, 'endDate', ${dates.endDate},
      'publishedAt', ${at.toISOString()}, 'changes', count(*), 'premiumHours', round(total(added_premium_hours), 4),
      'premiumAmount', round(total(added_premium_amount), 2)) AS data
    FROM schedule_entries WHERE organization_id = ${organizationId} AND added_entry_date >= ${addDays(dates.startDate, -2)}
      AND added_entry_date <= ${addDays(dates.endDate, 2)} AND added_change_id >= ${prefix} AND added_change_id < ${`${prefix}~`}
    HAVING count(*) > 0)`;
  const events: EventSpec[] = [
    { organizationId, occurredAt: at, type: "schedule_changes.recorded", read: { form: "wire", select: summary }, always: true },
  ];
  return { set, assignedStatements, events };
}

/**
 * The premium's `field` of the first of `bands` an entry's notice and length fall in, null outside the window
 * (`inside`) and for a band without a premium: one CASE of literals, no join per row, each band's bounds compared
 * with the row's own columns (domain addedBandSpan).
 */
function premiumByBand(bands: readonly AddedPremiumBand[], inside: SQL, at: number, field: keyof PremiumOwed) {
  const value = (premium: PremiumOwed | null) => {
    const v = premium?.[field] ?? null;
    return v === null ? sql`NULL` : typeof v === "string" ? sqlText(v) : sqlNumber(v);
  };
  // NULL whatever the band (NYC's flat amounts have no hours): no CASE to evaluate per row.
  if (bands.every((b) => (b.premium?.[field] ?? null) === null)) return sql`NULL`;
  const when = bands.map((b) => {
    const span = addedBandSpan(b, at);
    const conditions = span
      ? [
          ...(span.startFrom === null ? [] : [sql`start_at >= ${sqlNumber(span.startFrom)}`]),
          sql`start_at < ${sqlNumber(span.startBefore)}`,
          ...(span.lengthFrom === null ? [] : [sql`end_at - start_at >= ${sqlNumber(span.lengthFrom)}`]),
          ...(span.lengthBelow === null ? [] : [sql`end_at - start_at < ${sqlNumber(span.lengthBelow)}`]),
        ]
      : [sql`0`];
    return sql`WHEN ${sql.join(conditions, sql` AND `)} THEN ${value(b.premium)}`;
  });
  return sql.join([sql`CASE WHEN NOT (${inside}) THEN NULL`, ...when, sql`END`], sql` `);
}
