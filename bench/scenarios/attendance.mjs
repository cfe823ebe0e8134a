// Issue 20: the Cron's attendance pass over 10,000 published entries nobody clocked in for (NO_SHOW) and 10,000
// forgotten open shifts (auto clock-out, MISSED_CLOCK_OUT; every fifth on an open break), counted at the D1 binding:
// round trips, statements, rows read and written, then the same pass again (nothing left to do) and 30 minutes on.
import { expectStatus, seedOrganization } from "../lib/api.mjs";
import { table } from "../lib/report.mjs";
import { startOurs } from "../lib/workers.mjs";

export const name = "attendance";
export const description = "The Cron's attendance pass over 10,000 no-shows and 10,000 forgotten shifts (issue 20)";

const NO_SHOWS = 10_000;
const FORGOTTEN = 10_000;
const HOUR = 3_600_000;

const sql = (ours, text, params = []) =>
  expectStatus(ours.request("POST", "/__bench/sql", { body: { sql: text, params } }), 200, "bench sql");

/** `count` rows of a recursive counter n = 1…count, for INSERT … SELECT seeding in one statement. */
const counter = (count) => `WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n WHERE i < ${count})`;

async function seed(ours, now, print) {
  const r = ours.request;
  const started = Date.now();
  const { org, admin } = await seedOrganization(r, { name: "Bench Attendance", timezone: "UTC" });
  const path = `/api/organizations/${org.id}`;
  const location = await expectStatus(
    r("POST", `${path}/locations`, { token: admin, body: { name: "Depot", timezone: "UTC" } }),
    201,
    "location",
  );
  const roleId = org.defaults.roles[0].id;
  const breakType = await expectStatus(
    r("POST", `${path}/locations/${location.id}/breaks`, {
      token: admin,
      body: { name: "Lunch", durationMinutes: 30, frequencyMinutes: 360, paid: false, mandatory: false },
    }),
    201,
    "break type",
  );
  const staff = NO_SHOWS + FORGOTTEN;
  await sql(
    ours,
    `${counter(staff)} INSERT INTO staff_members (id, organization_id, name, access_role_id, location_ids, role_ids, active, created_at, updated_at)
      SELECT printf('bench-staff-%05d', i), ?, 'Worker ' || i, (SELECT id FROM access_roles WHERE organization_id = ? LIMIT 1),
        json_array(?), '[]', 1, ?, ? FROM n`,
    [org.id, org.id, location.id, now - 30 * 24 * HOUR, now - 30 * 24 * HOUR],
  );
  // Entries published a day ago that started 3 hours ago: nobody clocked in.
  await sql(
    ours,
    `${counter(NO_SHOWS)} INSERT INTO schedule_entries (id, organization_id, location_id, employee_id, role_id, start_at, end_at,
        utc_offset, timezone, breaks, is_draft, published_at, active, created_at, updated_at)
      SELECT printf('bench-entry-%05d', i), ?, ?, printf('bench-staff-%05d', i), ?, ? - (i % 60) * 60000, ? + 8 * ${HOUR}, 0, 'UTC',
        '[]', 0, ?, 1, ?, ? FROM n`,
    [org.id, location.id, roleId, now - 3 * HOUR, now - 3 * HOUR, now - 24 * HOUR, now - 24 * HOUR, now - 24 * HOUR],
  );
  // Shifts opened 20 hours ago and never closed, by the other half.
  await sql(
    ours,
    `${counter(FORGOTTEN)} INSERT INTO shifts (id, organization_id, employee_id, location_id, role_id, start_at, utc_offset,
        business_date, created_at, updated_at)
      SELECT printf('bench-shift-%05d', i), ?, printf('bench-staff-%05d', ${NO_SHOWS} + i), ?, ?, ? - (i % 60) * 60000, 0,
        strftime('%Y-%m-%d', (? - (i % 60) * 60000) / 1000, 'unixepoch'), ?, ? FROM n`,
    [org.id, location.id, roleId, now - 20 * HOUR, now - 20 * HOUR, now - 20 * HOUR, now - 20 * HOUR],
  );
  await sql(
    ours,
    `INSERT INTO shift_breaks (id, organization_id, shift_id, type_id, name, paid, mandatory, frequency_minutes,
        duration_in_settings_minutes, start_at, end_at, automatic)
      SELECT 'bench-break-' || id, organization_id, id, ?, 'Lunch', 0, 0, 360, 30, start_at + 4 * ${HOUR}, NULL, 0
      FROM shifts WHERE organization_id = ? AND CAST(substr(id, 13) AS INTEGER) % 5 = 0`,
    [breakType.id, org.id],
  );
  print(
    `  seeded ${staff} staff, ${NO_SHOWS} entries due as no-shows, ${FORGOTTEN} open shifts (every fifth on a break) in ${((Date.now() - started) / 1000).toFixed(1)} s`,
  );
  return { org };
}

export async function run({ stateDir, print }) {
  print("Starting our Worker (wrangler dev, bench/counting-entry.ts) and seeding it…");
  const ours = await startOurs(stateDir);
  const now = Date.now();
  const world = await seed(ours, now, print);
  print("");
  print("Cron attendance pass, D1 counted at the binding:");
  const rows = [];
  for (const [label, at] of [
    ["first pass", now],
    ["second pass, same instant", now],
    ["next pass, 30 min later", now + 30 * 60_000],
  ]) {
    const started = Date.now();
    const res = await expectStatus(
      ours.request("POST", "/__bench/attendance-pass", { body: { now: new Date(at).toISOString() } }),
      200,
      "attendance pass",
    );
    rows.push([
      label,
      String(res.report.noShows),
      String(res.report.autoClockOuts),
      String(res.roundTrips),
      String(res.statements),
      String(res.rowsRead),
      String(res.rowsWritten),
      ((Date.now() - started) / 1000).toFixed(2),
    ]);
  }
  print(table(["pass", "no-shows", "auto clock-outs", "round trips", "statements", "rows read", "rows written", "seconds"], rows));
  const counts = await sql(
    ours,
    `SELECT (SELECT count(*) FROM attendance_exceptions WHERE organization_id = ?1 AND type = 'NO_SHOW') AS noShows,
       (SELECT count(*) FROM attendance_exceptions WHERE organization_id = ?1 AND type = 'MISSED_CLOCK_OUT') AS missedClockOuts,
       (SELECT count(*) FROM shifts WHERE organization_id = ?1 AND end_at IS NULL) AS stillOpen,
       (SELECT count(*) FROM shift_breaks WHERE organization_id = ?1 AND end_at IS NULL) AS openBreaks,
       (SELECT count(*) FROM events WHERE organization_id = ?1 AND type = 'attendance_exception.raised') AS raisedEvents,
       (SELECT count(*) FROM events WHERE organization_id = ?1 AND type = 'shift.clocked_out') AS clockedOutEvents,
       (SELECT count(DISTINCT sequence) = count(*) FROM events WHERE organization_id = ?1) AS sequencesUnique`,
    [world.org.id],
  );
  const c = counts.results[0];
  print(
    `  after the passes: ${c.noShows} NO_SHOW and ${c.missedClockOuts} MISSED_CLOCK_OUT exceptions, ${c.stillOpen} shifts and ${c.openBreaks} breaks still open, ` +
      `${c.raisedEvents} attendance_exception.raised and ${c.clockedOutEvents} shift.clocked_out events (sequences unique: ${c.sequencesUnique ? "yes" : "NO"}).`,
  );
}
