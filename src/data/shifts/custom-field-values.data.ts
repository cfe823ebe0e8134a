import { customFields, shifts } from "@db/schema";
import { eq, type SQL, type SQLWrapper, sql } from "drizzle-orm";
import type { Database } from "@/data/client";
import { type Placeholders, prepared } from "@/data/prepared";
import { guard } from "@/data/write/guard";
import {
  type CustomFieldRule,
  type GivenValues,
  givenValueErrors,
  mergedValues,
  missingRequired,
  type StoredValues,
} from "@/domain/custom-fields";
import { validationFailed } from "@/problems/problem";
import { customFieldsChanged } from "@/problems/shifts";

/**
 * Every custom field of the organization, deleted ones too (for the read's fingerprint), in one statement of a shift
 * write's read batch.
 */
const fieldsOfOrganization = prepared((db, p: Placeholders<{ organizationId: string }>) =>
  db
    .select({
      id: customFields.id,
      type: customFields.type,
      options: customFields.options,
      pattern: customFields.pattern,
      required: customFields.required,
      active: customFields.active,
      deletedAt: customFields.deletedAt,
      updatedAt: customFields.updatedAt,
    })
    .from(customFields)
    .where(eq(customFields.organizationId, p.organizationId)),
);

/** Built once per isolate (data/prepared): it is in every punch's read batch. */
export const customFieldsRead = (db: Database, organizationId: string) => fieldsOfOrganization(db, { organizationId });

type FieldRows = Awaited<ReturnType<typeof customFieldsRead>>;

/**
 * The fields as read: the live ones as rules, and a fingerprint of every field's version (their count and the sum of
 * their updated_at, which every field write moves forward), which the write's guard compares with the table's.
 */
export interface CustomFieldsRead {
  organizationId: string;
  rules: CustomFieldRule[];
  fingerprint: string;
}

export const customFieldsOf = (organizationId: string, rows: FieldRows): CustomFieldsRead => ({
  organizationId,
  rules: rows
    .filter((r) => r.deletedAt === null)
    .map(({ id, type, options, pattern, required, active }) => ({ id, type, options, pattern, required, active })),
  fingerprint: `${rows.length}:${rows.reduce((sum, r) => sum + r.updatedAt.getTime(), 0)}`,
});

const fingerprintNow = (organizationId: string | SQLWrapper): SQL =>
  sql`(SELECT count(*) || ':' || ifnull(sum(f."updated_at"), 0) FROM custom_fields f WHERE f."organization_id" = ${organizationId})`;

/** shifts.custom_fields: the values, while the organization's fields are the version the write checked them against. */
export const customFieldsAsRead = guard({
  column: shifts.customFields,
  problem: customFieldsChanged,
  /** `values`: the values' JSON; each a bound value or a prepared statement's placeholder. */
  sql: (values: string | SQLWrapper, organizationId: string | SQLWrapper, fingerprint: string | SQLWrapper): SQL =>
    sql`(CASE WHEN ${fingerprintNow(organizationId)} = ${fingerprint} THEN ${values} END)`,
});

/**
 * The shift's values after a write that gives `given` (merged over `stored`), checked against the fields as read:
 * each given value must name an active field and fit it, and with `requireAll` (clock-out) every active required
 * field must have a value; else 400 VALIDATION_FAILED naming `customFields.<fieldId>`. `column` is what the write
 * puts into shifts.custom_fields: the values, guarded by the fields' version whenever they were checked.
 */
export async function checkedValues(read: CustomFieldsRead, stored: StoredValues, given: GivenValues | undefined, requireAll = false) {
  const values = mergedValues(stored, given);
  const errors = [...(await givenValueErrors(read.rules, given ?? {})), ...(requireAll ? missingRequired(read.rules, values) : [])];
  if (errors.length) throw validationFailed(errors);
  const checked = requireAll || (given !== undefined && Object.keys(given).length > 0);
  const column = checked ? customFieldsAsRead.sql(JSON.stringify(values), read.organizationId, read.fingerprint) : values;
  // `fingerprint`: the fields' version the guard in `column` holds the write to (a prepared write binds it), null when unchecked.
  return { values, column: column as unknown as Record<string, string>, fingerprint: checked ? read.fingerprint : null };
}
