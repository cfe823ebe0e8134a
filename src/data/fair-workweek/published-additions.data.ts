import { type SQL, sql } from "drizzle-orm";
import type { Database, Statement } from "@/data/client";
import { newId } from "@/data/ids";
import { rawRun } from "@/data/raw-statement";
import { sqlNumber, sqlText } from "@/data/sql-literal";
import { type AddedPremiumBand, addedBandSpan, type PremiumOwed } from "@/domain/fair-workweek/change-premium";
import type { RulesRun } from "./change-rules.data";

/** An entry's local date in SQL, as businessDate gives it from its start and its own offset. */
const ENTRY_DATE = sql`date((start_at + utc_offset * 60000) / 1000, 'unixepoch')`;

/**
 * What records, inside a publish's batch and after its writes, the ADDED change of every entry that batch made
 * public at `locationId` (published_at = `at`: drafts and the entries of applied assignments alike, all starting in
 * `range`) whose start is inside the notice window, as seen at `at`, of the pack in effect on the entry's own date:
 * ONE INSERT … SELECT into schedule_changes per run of dates sharing a pack version (one, unless the pack changed
 * inside the range), the rows changeRowsOf makes for the same entries (test/schedule-changes-publish.test.ts), priced
 * by addedPremiumSql from the same bands the dry run prices with.
 *
 * Ids keep the project's format and order: one newId(at)'s first 24 characters per run (its millisecond, version,
 * per-isolate counter and random bits, so each run's differ), then the row's position in start order and three random
 * bytes. `summary` counts and sums what the statements recorded, by primary key over those prefixes: for the
 * publish's own event.
 */
export function recordingPublishedAdditions(
  db: Database,
  organizationId: string,
  locationId: string,
  runs: readonly RulesRun[],
  at: Date,
  range: { start: Date; end: Date },
): { statements: Statement[]; summary: SQL } {
  const now = at.getTime();
  const prefixes = runs.map(() => newId(now).slice(0, 24));
  const statements = runs.map(({ from, to, rules }, i) => {
    const windowEnd = now + Math.ceil(rules.noticeDays * 24 * 60) * 60_000;
    const premium = addedPremiumSql(rules.addedBands, now);
    const dated = [from === null ? sql`` : sql` AND ${ENTRY_DATE} >= ${from}`, to === null ? sql`` : sql` AND ${ENTRY_DATE} <= ${to}`];
    return rawRun(
      db,
      sql`INSERT INTO schedule_changes (id, organization_id, location_id, schedule_entry_id, employee_id, kind, notice_minutes,
          minutes_lost, minutes_added, entry_minutes, initiated_by, exemption, reason, entry_date, rule_pack, premium_hours,
          premium_amount, premium_rule, active, created_at, updated_at, deleted_at)
        SELECT ${prefixes[i]} || printf('%06x', row_number() OVER (ORDER BY start_at, id)) || lower(hex(randomblob(3))),
          ${organizationId}, ${locationId}, id, employee_id, 'ADDED', max(0, (start_at - ${sqlNumber(now)}) / 60000), 0,
          CAST(round((end_at - start_at) / 60000.0) AS INTEGER), CAST(round((end_at - start_at) / 60000.0) AS INTEGER),
          'EMPLOYER', NULL, NULL, ${ENTRY_DATE}, ${sqlText(rules.rulePack)}, ${premium.hours}, ${premium.amount}, ${premium.rule},
          1, ${sqlNumber(now)}, ${sqlNumber(now)}, NULL
        FROM schedule_entries WHERE location_id = ${locationId} AND is_draft = 0 AND start_at >= ${range.start.getTime()}
          AND start_at < ${Math.min(range.end.getTime(), windowEnd)} AND published_at = ${now} AND organization_id = ${organizationId}
          AND deleted_at IS NULL${dated[0]}${dated[1]}`,
    ) as Statement;
  });
  const byPrefix = prefixes.length
    ? sql.join(
        prefixes.map((prefix) => sql`(id >= ${prefix} AND id < ${`${prefix}~`})`),
        sql` OR `,
      )
    : sql`0`;
  // By key alone (+organization_id: not the index by organization, which would read all its changes).
  const summary = sql`(SELECT count(*) AS changes, round(total(premium_hours), 4) AS premiumHours,
      round(total(premium_amount), 2) AS premiumAmount FROM schedule_changes WHERE (${byPrefix}) AND +organization_id = ${organizationId})`;
  return { statements, summary };
}

/**
 * An ADDED change's premium in SQL, for a row with start_at and end_at (ms) recorded at `at` (ms) inside the notice
 * window: for each of hours, amount and rule, the value of the first of `bands` the row's notice and length fall in,
 * null for a band without a premium. One CASE of literals, no join and no arithmetic per row: each band's bounds are
 * compared with the row's own columns (addedBandSpan). The same answer as addedPremiumOf, what the dry run and every
 * other write price with (test/schedule-changes-premium-sql.test.ts).
 */
export function addedPremiumSql(bands: readonly AddedPremiumBand[], at: number): Record<keyof PremiumOwed, SQL> {
  const of = (field: keyof PremiumOwed) => {
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
    return sql.join([sql`CASE`, ...when, sql`END`], sql` `);
  };
  return { hours: of("hours"), amount: of("amount"), rule: of("rule") };
}
