import { and, eq, isNull, type SQL } from "drizzle-orm";
import type { SQLiteUpdateSetSource } from "drizzle-orm/sqlite-core";
import { accessRoles, organizations, policyTypes, roles, timeOffSettings } from "../../../drizzle/schema";
import type { Principal } from "../../domain/permissions";
import {
  DEFAULT_ACCESS_ROLES,
  DEFAULT_POLICY_TYPES,
  DEFAULT_ROLE_NAME,
  DEFAULT_TIME_OFF_SETTINGS,
} from "../../domain/organization-defaults";
import type { Database } from "../../lib/db";
import { ifMatchOf, nextVersion, preconditionFailed, setETag, versionCondition } from "../../lib/conditional";
import { uniquely } from "../../lib/db-errors";
import { guardedBatch } from "../../lib/principal-guard";
import type { WriteContext } from "../../lib/tenant-queries";
import { newId } from "../../lib/ids";
import { keysetPage, pageResult } from "../../lib/pagination";
import { notFound } from "../../lib/problem";
import { softDeleted } from "../../lib/tenancy";
import type { AppRouteHandler } from "../../lib/types";
import type * as routes from "./organizations.routes";
import { serializeOrganization } from "./organizations.schemas";

/** Organizations are a partner's; an organization token sees only its own. */
const visibleTo = (principal: Principal): SQL =>
  and(
    eq(organizations.partnerId, principal.partnerId),
    principal.organizationId ? eq(organizations.id, principal.organizationId) : undefined,
  )!;

const EXTERNAL_ID_TAKEN = ["EXTERNAL_ID_TAKEN", "Another organization of this partner has that externalId."] as const;

async function findLive(db: Database, principal: Principal, match: SQL) {
  const [row] = await db
    .select()
    .from(organizations)
    .where(and(visibleTo(principal), match, isNull(organizations.deletedAt)));
  if (!row) throw notFound("Organization");
  return row;
}

type OrganizationChanges = SQLiteUpdateSetSource<typeof organizations>;

/**
 * Updates the live organization `match` picks behind the principal guard, conditional on If-Match; answers it with
 * its ETag, else 404, or 412 when it exists in another version.
 */
async function updateVisible(c: WriteContext, match: SQL, values: OrganizationChanges) {
  const { db, principal } = c.var;
  const ifMatch = ifMatchOf(c);
  const [[row]] = await uniquely(
    guardedBatch(c.var, [
      db
        .update(organizations)
        .set({ ...values, updatedAt: nextVersion(organizations.updatedAt) })
        .where(and(visibleTo(principal), match, isNull(organizations.deletedAt), versionCondition(organizations.updatedAt, ifMatch)))
        .returning(),
    ]),
    ...EXTERNAL_ID_TAKEN,
  );
  if (!row) {
    if (ifMatch.kind === "versions") {
      await findLive(db, principal, match);
      throw preconditionFailed();
    }
    throw notFound("Organization");
  }
  setETag(c, row);
  return serializeOrganization(row);
}

export const list: AppRouteHandler<routes.ListRoute> = async (c) => {
  const query = c.req.valid("query");
  const page = keysetPage(organizations, query);
  const rows = await c.var.db
    .select()
    .from(organizations)
    .where(and(visibleTo(c.var.principal), page.where))
    .orderBy(page.orderBy)
    .limit(page.limit);
  return c.json(pageResult(c, rows, query.limit).map(serializeOrganization), 200);
};

export const getOne: AppRouteHandler<routes.GetOneRoute> = async (c) => {
  const { organization_id } = c.req.valid("param");
  const row = await findLive(c.var.db, c.var.principal, eq(organizations.id, organization_id));
  setETag(c, row);
  return c.json(serializeOrganization(row), 200);
};

export const getByExternalId: AppRouteHandler<routes.GetByExternalIdRoute> = async (c) => {
  const { externalId } = c.req.valid("param");
  const row = await findLive(c.var.db, c.var.principal, eq(organizations.externalId, externalId));
  setETag(c, row);
  return c.json(serializeOrganization(row), 200);
};

const newOrganization = (partnerId: string, body: routes.CreateBody, now: Date) => ({
  id: newId(now.getTime()),
  partnerId,
  ...body,
  createdAt: now,
  updatedAt: now,
});

export const create: AppRouteHandler<routes.CreateRoute> = async (c) => {
  const row = newOrganization(c.var.principal.partnerId, c.req.valid("json"), new Date());
  const [[created]] = await uniquely(guardedBatch(c.var, [c.var.db.insert(organizations).values(row).returning()]), ...EXTERNAL_ID_TAKEN);
  setETag(c, created!);
  return c.json(serializeOrganization(created!), 201);
};

export const createWithDefaults: AppRouteHandler<routes.CreateWithDefaultsRoute> = async (c) => {
  const db = c.var.db;
  const now = new Date();
  const organization = newOrganization(c.var.principal.partnerId, c.req.valid("json"), now);
  const owned = () => ({ id: newId(now.getTime()), organizationId: organization.id, createdAt: now, updatedAt: now });
  const defaultAccessRoles = DEFAULT_ACCESS_ROLES.map((role) => ({ ...owned(), ...role }));
  const defaultRoles = [{ ...owned(), name: DEFAULT_ROLE_NAME }];
  const defaultPolicyTypes = DEFAULT_POLICY_TYPES.map((type) => ({ ...owned(), ...type }));
  const [[created]] = await uniquely(
    guardedBatch(c.var, [
      db.insert(organizations).values(organization).returning(),
      db.insert(accessRoles).values(defaultAccessRoles),
      db.insert(roles).values(defaultRoles),
      db.insert(policyTypes).values(defaultPolicyTypes),
      db.insert(timeOffSettings).values({
        organizationId: organization.id,
        settings: DEFAULT_TIME_OFF_SETTINGS,
        createdAt: now,
        updatedAt: now,
      }),
    ]),
    ...EXTERNAL_ID_TAKEN,
  );
  setETag(c, created!);
  const pick = ({ id, name }: { id: string; name: string }) => ({ id, name });
  return c.json(
    {
      ...serializeOrganization(created!),
      defaults: {
        accessRoles: defaultAccessRoles.map((r) => ({ ...pick(r), permissions: r.permissions })),
        roles: defaultRoles.map(pick),
        policyTypes: defaultPolicyTypes.map((t) => ({ ...pick(t), type: t.type })),
      },
    },
    201,
  );
};

export const patch: AppRouteHandler<routes.PatchRoute> = async (c) => {
  const { organization_id } = c.req.valid("param");
  const changes = c.req.valid("json");
  return c.json(await updateVisible(c, eq(organizations.id, organization_id), { ...changes, updatedAt: new Date() }), 200);
};

export const remove: AppRouteHandler<routes.RemoveRoute> = async (c) => {
  const { organization_id } = c.req.valid("param");
  return c.json(await updateVisible(c, eq(organizations.id, organization_id), softDeleted()), 200);
};

export const removeByExternalId: AppRouteHandler<routes.RemoveByExternalIdRoute> = async (c) => {
  const { externalId } = c.req.valid("param");
  return c.json(await updateVisible(c, eq(organizations.externalId, externalId), softDeleted()), 200);
};
