// Seeding helpers the bench scenarios share.
import { randomUUID } from "node:crypto";

/** Runs `fn` over `items`, `size` at a time (each group in parallel, the groups in order); the results in order. */
export async function inGroups(items, size, fn) {
  const out = [];
  for (let i = 0; i < items.length; i += size) out.push(...(await Promise.all(items.slice(i, i + size).map(fn))));
  return out;
}

/** A calendar date (YYYY-MM-DD) `days` later (or earlier). */
export const addDays = (date, days) => new Date(Date.parse(date) + days * 86_400_000).toISOString().slice(0, 10);

/** The columns of a schedule_entries row, in the order the scenarios build their rows for POST /__bench/load. */
export const ENTRY_COLUMNS = [
  "id",
  "organization_id",
  "location_id",
  "employee_id",
  "role_id",
  "start_at",
  "end_at",
  "utc_offset",
  "timezone",
  "breaks",
  "note",
  "is_draft",
  "published_at",
  "open_shift_id",
  "active",
  "created_at",
  "updated_at",
  "deleted_at",
];

const offsetFormatters = new Map();
/** Minutes east of UTC in an IANA zone at an instant. */
export function offsetAt(timeZone, ms) {
  let f = offsetFormatters.get(timeZone);
  if (!f) offsetFormatters.set(timeZone, (f = new Intl.DateTimeFormat("en-US", { timeZone, timeZoneName: "longOffset" })));
  const m = /GMT([+-])(\d{2}):(\d{2})/.exec(f.format(ms));
  return m ? (m[1] === "-" ? -1 : 1) * (Number(m[2]) * 60 + Number(m[3])) : 0;
}

/** A local wall-clock time ("HH:MM") of a date in a zone → its UTC instant and offset (DST-correct away from the skipped hour). */
export function localInstant(date, time, timeZone) {
  const naive = Date.parse(`${date}T${time}:00Z`);
  const utcOffset = offsetAt(timeZone, naive - offsetAt(timeZone, naive) * 60_000);
  return { startAt: naive - utcOffset * 60_000, utcOffset };
}

/** The hour `hour` as "HH:00". */
export const atHour = (hour) => `${String(hour).padStart(2, "0")}:00`;

/**
 * A week of schedule_entries rows (ENTRY_COLUMNS' order) for POST /__bench/load: one 8-hour entry a day for each staff
 * member, starting at `startHour(i)` local time in `timeZone`, drafts or published at `now`. `each(id, day, member)`
 * sees every row's id as it is made.
 */
export function weekEntryRows({ organizationId, locationId, staff, roleOf, week, timeZone, isDraft, now, startHour, each }) {
  const rows = [];
  for (let day = 0; day < 7; day++) {
    const date = addDays(week.startDate, day);
    staff.forEach((member, i) => {
      const { startAt, utcOffset } = localInstant(date, atHour(startHour(i)), timeZone);
      const id = randomUUID();
      each?.(id, day, member);
      rows.push([
        id,
        organizationId,
        locationId,
        member.id,
        roleOf(member),
        startAt,
        startAt + 8 * 3_600_000,
        utcOffset,
        timeZone,
        "[]",
        null,
        isDraft ? 1 : 0,
        isDraft ? null : now,
        null,
        1,
        now,
        now,
        null,
      ]);
    });
  }
  return rows;
}
