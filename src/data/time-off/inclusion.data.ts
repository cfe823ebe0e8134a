import { type SQL, sql } from "drizzle-orm";

/**
 * Whether the staff member aliased `s` is included in the policy aliased `p`, given their worker policy `wp`
 * (possibly absent, from a LEFT JOIN): the SQL twin of domain/time-off-inclusion's isIncluded. Computed where
 * it is read, so staff created or changed later follow the rule without any extra write.
 */
export const includedSql = (p = "p"): SQL =>
  sql.raw(`COALESCE(wp.is_included, CASE json_extract(${p}.default_settings, '$.assignedStaff.type')
  WHEN 'All' THEN 1
  WHEN 'Role' THEN EXISTS (SELECT 1 FROM json_each(s.role_ids) WHERE value = json_extract(${p}.default_settings, '$.assignedStaff.value'))
  WHEN 'Location' THEN EXISTS (SELECT 1 FROM json_each(s.location_ids) WHERE value = json_extract(${p}.default_settings, '$.assignedStaff.value'))
  WHEN 'EmploymentType' THEN COALESCE(s.employment_type = json_extract(${p}.default_settings, '$.assignedStaff.value'), 0)
  ELSE 0 END)`);

/** How many live staff members of the organization the policy aliased `p` includes. */
export const assignedStaffCountSql = (p = "p"): SQL =>
  sql
    .raw(`(SELECT COUNT(*) FROM staff_members s LEFT JOIN worker_policies wp ON wp.policy_id = ${p}.id AND wp.worker_id = s.id
    WHERE s.organization_id = ${p}.organization_id AND s.deleted_at IS NULL AND `)
    .append(includedSql(p))
    .append(sql.raw(")"));

/** A UUID v4's last 23 characters (`-4xxx-yxxx-xxxxxxxxxxxx`), random, made by SQLite. */
const UUID_TAIL = `'-4' || substr(hex(randomblob(2)), 2) || '-' || substr('89ab', 1 + (abs(random()) % 4), 1) ||
  substr(hex(randomblob(2)), 2) || '-' || hex(randomblob(6))`;

/** A random UUID (version 4) made by SQLite, for rows a single INSERT … SELECT creates in bulk. */
export const sqlUuid: SQL = sql.raw(`lower(hex(randomblob(4)) || '-' || hex(randomblob(2)) || ${UUID_TAIL})`);

/**
 * A random UUID (version 4) starting with `head` (`uuidHead()`, its first 48 bits): the rows one statement creates
 * share it, so a later statement of the batch finds them by the primary key (ids in [head, head + "/")); the other
 * 74 random bits keep each id unique.
 */
export const sqlUuidAfter = (head: string): SQL => sql`${head} || lower(${sql.raw(UUID_TAIL)})`;

/** A fresh head for sqlUuidAfter: `xxxxxxxx-xxxx`. */
export const uuidHead = () => crypto.randomUUID().slice(0, 13);

/** Σ of the balance's ledger entries, for the worker policy aliased `wp`. */
export const hoursBalanceSql: SQL = sql.raw(`(SELECT COALESCE(SUM(hours), 0) FROM time_off_ledger WHERE worker_policy_id = wp.id)`);

/** Hours of the balance's pending requests, for the worker policy aliased `wp`. */
export const pendingHoursSql: SQL = sql.raw(
  `(SELECT COALESCE(SUM(total_hours), 0) FROM time_off_requests WHERE worker_policy_id = wp.id AND status = 'pending' AND deleted_at IS NULL)`,
);
