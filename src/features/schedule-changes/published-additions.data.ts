import { type SQL, sql } from "drizzle-orm";
import type { Database, Statement } from "@/data/client";
import { newId } from "@/data/ids";
import type { EventSpec } from "@/data/outbox/outbox";
import { rawRun } from "@/data/raw-statement";
import { sqlNumber, sqlText } from "@/data/sql-literal";
import type { ChangeRules } from "@/domain/fair-workweek/schedule-change";

/**
 * What records, inside a publish's batch and after its writes, the ADDED change of every entry that batch published
 * at `location` (published_at = `at`: drafts made public and the entries of applied assignments alike, all starting
 * in the publish's `range`) whose start is inside the pack's notice window as seen at `at`: ONE INSERT … SELECT FROM schedule_entries, the rows changeRowsOf
 * makes for the same entries (test/schedule-changes-publish.test.ts), priced by the pack's ADDED bands
 * (domain/fair-workweek addedPremiumBands) in a CASE, and ONE `schedule_changes.recorded` event for them all (the
 * publish's range, instant, number of changes and premiums in total; none when it recorded none).
 *
 * Ids keep the project's format and order (data/ids newId, a UUIDv7): the first ten bytes are one newId(at)'s (its
 * millisecond, version, per-isolate counter and random bits), then three bytes of the row's position and the last
 * three bytes of its entry's id (random bits of that UUID: as random as randomblob, without its three function calls
 * per row). The rows sort after every id made before and before every id made after them in this isolate, in
 * position order among themselves, and are unique within the statement by position. The position is the order the
 * location's index (schedule_entries_location_draft_start) reads the entries in, by start then id: no sort, and the
 * rows are inserted in id order, so their primary key and (organization, date) index entries append.
 */
export function recordingPublishedAdditions(
  db: Database,
  organizationId: string,
  locationId: string,
  rules: ChangeRules,
  at: Date,
  range: { start: Date; end: Date },
  dates: { startDate: string; endDate: string },
): { statements: Statement[]; events: EventSpec[] } {
  const now = at.getTime();
  const prefix = newId(now).slice(0, 24);
  // Whole minutes of notice under noticeDays days: the start is less than that many minutes after `at`.
  const window = Math.ceil(rules.noticeDays * 24 * 60) * 60_000;
  const bands = rules.addedBands;
  const bandOf = bands.length
    ? sql.join(
        [
          sql`CASE`,
          ...bands.map(
            (b, i) =>
              sql`WHEN notice >= ${sqlNumber(b.minNoticeMinutes)} AND notice < ${sqlNumber(b.maxNoticeMinutes)}${
                b.longerThan === null ? sql`` : sql` AND minutes > ${sqlNumber(b.longerThan)}`
              }${b.atMost === null ? sql`` : sql` AND minutes <= ${sqlNumber(b.atMost)}`} THEN ${sqlNumber(i)}`,
          ),
          sql`END`,
        ],
        sql` `,
      )
    : sql`NULL`;
  // Each band's premium as literals (no json_each to join per row): numbers as they are, the rule quoted.
  const byBand = (value: (premium: NonNullable<(typeof bands)[number]["premium"]>) => SQL) =>
    bands.some((b) => b.premium)
      ? sql.join(
          [sql`CASE e.band`, ...bands.flatMap((b, i) => (b.premium ? [sql`WHEN ${sqlNumber(i)} THEN ${value(b.premium)}`] : [])), sql`END`],
          sql` `,
        )
      : sql`NULL`;
  const orNull = (value: number | null) => (value === null ? sql`NULL` : sqlNumber(value));
  const statement = rawRun(
    db,
    sql`INSERT INTO schedule_changes (id, organization_id, location_id, schedule_entry_id, employee_id, kind, notice_minutes,
        minutes_lost, minutes_added, entry_minutes, initiated_by, exemption, reason, entry_date, rule_pack, premium_hours,
        premium_amount, premium_rule, active, created_at, updated_at, deleted_at)
      SELECT ${prefix} || printf('%06x', row_number() OVER (ORDER BY e.start_at, e.id)) || lower(substr(e.id, -6)), ${organizationId},
        ${locationId}, e.id, e.employee_id, 'ADDED', e.notice, 0, e.minutes, e.minutes, 'EMPLOYER', NULL, NULL, e.entry_date,
        ${rules.rulePack}, ${byBand((p) => orNull(p.hours))}, ${byBand((p) => orNull(p.amount))}, ${byBand((p) => sqlText(p.rule))},
        1, ${now}, ${now}, NULL
      FROM (SELECT id, employee_id, start_at, notice, minutes, entry_date, ${bandOf} AS band FROM (SELECT id, employee_id, start_at,
          max(0, (start_at - ${now}) / 60000) AS notice, CAST(round((end_at - start_at) / 60000.0) AS INTEGER) AS minutes,
          date((start_at + utc_offset * 60000) / 1000, 'unixepoch') AS entry_date
        FROM schedule_entries WHERE location_id = ${locationId} AND is_draft = 0 AND published_at = ${now}
          AND organization_id = ${organizationId} AND deleted_at IS NULL AND start_at >= ${range.start.getTime()}
          AND start_at < ${Math.min(range.end.getTime(), now + window)})) e`,
  ) as Statement;
  // One event for all of them (as the publish records one schedule.published for all its entries), none when none.
  const summary = sql`(SELECT json_object('locationId', ${locationId}, 'startDate', ${dates.startDate}, 'endDate', ${dates.endDate},
      'publishedAt', ${at.toISOString()}, 'changes', count(*), 'premiumHours', round(total(premium_hours), 4),
      'premiumAmount', round(total(premium_amount), 2)) AS data
    FROM schedule_changes WHERE id >= ${prefix} AND id < ${`${prefix}~`} HAVING count(*) > 0)`;
  const events: EventSpec[] = [
    { organizationId, occurredAt: at, type: "schedule_changes.recorded", read: { form: "wire", select: summary }, always: true },
  ];
  return { statements: [statement], events };
}
