import { accessRoles, organizations, policyTypes, roles, timeOffSettings } from "@db/schema";
import { and, eq, isNull, type SQL } from "drizzle-orm";
import type { BatchResponse } from "drizzle-orm/batch";
import type { SQLiteUpdateSetSource } from "drizzle-orm/sqlite-core";
import type { Database, Statement } from "@/data/client";
import { DEFAULT_TIME_OFF_SETTINGS } from "@/domain/organization-defaults";
import type { Principal } from "@/domain/permissions";
import { type IfMatch, nextVersion, versionCondition } from "@/platform/http/conditional";
import { keysetPage } from "@/platform/http/pagination";
import type { ListOptions } from "@/platform/schemas/list-query";
import { notFound } from "@/problems/problem";
import type { Lookup } from "./directory.data";

export type OrganizationChanges = SQLiteUpdateSetSource<typeof organizations>;
export type BatchAnswers<T extends readonly [Statement, ...Statement[]]> = BatchResponse<T>;
type OrganizationRow = typeof organizations.$inferInsert;

/** Organizations are a partner's; an organization token sees only its own. */
const visibleTo = (principal: Principal): SQL =>
  and(
    eq(organizations.partnerId, principal.partnerId),
    principal.organizationId ? eq(organizations.id, principal.organizationId) : undefined,
  )!;

/** The organization a lookup names, by id or by externalId. */
export const organizationMatch = (lookup: Lookup): SQL =>
  "id" in lookup ? eq(organizations.id, lookup.id) : eq(organizations.externalId, lookup.externalId);

/** The live organization `match` picks among those the principal sees, else 404. */
export async function findVisible(db: Database, principal: Principal, match: SQL) {
  const [row] = await db
    .select()
    .from(organizations)
    .where(and(visibleTo(principal), match, isNull(organizations.deletedAt)));
  if (!row) throw notFound("Organization");
  return row;
}

/** The update of the live organization `match` picks, conditional on If-Match, answering the row as written. */
export const updateVisibleStatement = (db: Database, principal: Principal, match: SQL, values: OrganizationChanges, ifMatch: IfMatch) =>
  db
    .update(organizations)
    .set({ ...values, updatedAt: nextVersion(organizations.updatedAt) })
    .where(and(visibleTo(principal), match, isNull(organizations.deletedAt), versionCondition(organizations.updatedAt, ifMatch)))
    .returning();

/** The organization's row, as its event reads it. */
export const organizationRow = (organizationId: string) => ({ table: organizations, where: eq(organizations.id, organizationId) });

/** A partner listing's filters on each shard's page (the directory's cursor is the listing's). */
export const pageFilters = (query: ListOptions) => keysetPage(organizations, { ...query, cursor: undefined }).where;

/** A keyset page of the organizations the principal sees on this database: `limit + 1` rows (the handler's `pageResult`). */
export function visiblePage(db: Database, principal: Principal, query: ListOptions) {
  const page = keysetPage(organizations, query);
  return db
    .select()
    .from(organizations)
    .where(and(visibleTo(principal), page.where))
    .orderBy(page.orderBy)
    .limit(page.limit);
}

/** The insert of a new organization, answering it as stored. */
export const insertOrganization = (db: Database, row: OrganizationRow) => db.insert(organizations).values(row).returning();

/** The inserts of a new organization's defaults: access roles, a role, policy types and time-off settings. */
export const defaultsStatements = (
  db: Database,
  defaults: {
    organizationId: string;
    defaultAccessRoles: (typeof accessRoles.$inferInsert)[];
    defaultRoles: (typeof roles.$inferInsert)[];
    defaultPolicyTypes: (typeof policyTypes.$inferInsert)[];
    now: Date;
  },
) =>
  [
    db.insert(accessRoles).values(defaults.defaultAccessRoles),
    db.insert(roles).values(defaults.defaultRoles),
    db.insert(policyTypes).values(defaults.defaultPolicyTypes),
    db.insert(timeOffSettings).values({
      organizationId: defaults.organizationId,
      settings: DEFAULT_TIME_OFF_SETTINGS,
      createdAt: defaults.now,
      updatedAt: defaults.now,
    }),
  ] as const;
