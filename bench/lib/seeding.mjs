// Seeding helpers the bench scenarios share.

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
