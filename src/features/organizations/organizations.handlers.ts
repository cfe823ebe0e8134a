import type { Database, Statement } from "@/data/client";
import { deleteFilesUnder, organizationPhotosPrefix } from "@/data/files";
import { newId } from "@/data/ids";
import { DIRECTORY_SHARD, filesOf, placementOf, shardConfig } from "@/data/shards";
import { softDeleted } from "@/data/tenancy";
import { uniquely } from "@/data/write/constraint-problems";
import { guardedBatch } from "@/data/write/guarded-batch";
import { DEFAULT_ACCESS_ROLES, DEFAULT_POLICY_TYPES, DEFAULT_ROLE_NAME, EMPLOYEE_ACCESS_ROLE } from "@/domain/organization-defaults";
import { ifMatchOf, setETag } from "@/platform/http/conditional";
import type { AppContext, AppRouteHandler } from "@/platform/http/env";
import { pageResult } from "@/platform/http/pagination";
import { routeTo } from "@/platform/middleware/database";
import { conflict, notFound, ProblemError, preconditionFailed, validationFailed } from "@/problems/problem";
import {
  directoryEntry,
  directoryFollowsRow,
  followRowVersion,
  type Lookup,
  locate,
  partnerPage,
  removeDirectoryEntry,
  restoreDirectoryExternalId,
  setDirectoryExternalId,
  writtenOn,
} from "./directory.data";
import {
  type BatchAnswers,
  defaultsStatements,
  findVisible,
  insertOrganization,
  type OrganizationChanges,
  organizationMatch,
  organizationRow,
  pageFilters,
  updateVisibleStatement,
  visiblePage,
} from "./organizations.data";
import type * as routes from "./organizations.routes";
import { serializeOrganization } from "./organizations.schemas";
import { sandboxSeed } from "./sandbox-seed.data";

const EXTERNAL_ID_TAKEN = ["EXTERNAL_ID_TAKEN", "Another organization of this partner has that externalId."] as const;

/**
 * Updates the live organization `lookup` names, on its shard, behind the principal guard, conditional on If-Match;
 * answers it with its ETag, else 404, or 412 when it exists in another version. A new externalId goes to the
 * directory too: in the same batch on DB, else first (organizations.directory.ts), undone if the shard's write fails.
 */
async function updateVisible(
  c: AppContext,
  lookup: Lookup,
  values: OrganizationChanges,
  event: "organization.updated" | "organization.deleted",
) {
  const { principal } = c.var;
  const located = await locate(c, lookup);
  const { db } = located;
  const match = organizationMatch(lookup);
  const ifMatch = ifMatchOf(c);
  const update = updateVisibleStatement(db, principal, match, values, ifMatch);
  // A partner-level write names the organization, so that a move's freeze refuses it too (503 ORGANIZATION_MOVING).
  const writer = { db, principal, organizationId: located.organizationId };
  const renames = "id" in lookup && values.externalId !== undefined;
  const events = [{ type: event, organizationId: located.organizationId, row: organizationRow(located.organizationId) }];
  const write = async () => {
    if (!renames) return uniquely(guardedBatch(writer, [update], [], { events }), ...EXTERNAL_ID_TAKEN);
    if (located.shard === DIRECTORY_SHARD) {
      return uniquely(guardedBatch(writer, [update], [], { events, trailing: [directoryFollowsRow(c, lookup.id)] }), ...EXTERNAL_ID_TAKEN);
    }
    await uniquely(setDirectoryExternalId(c, lookup.id, values.externalId as string | null), ...EXTERNAL_ID_TAKEN);
    try {
      const written = await uniquely(guardedBatch(writer, [update], [], { events }), ...EXTERNAL_ID_TAKEN);
      const [row] = written[0];
      await (row ? followRowVersion(c, lookup.id, row) : restoreDirectoryExternalId(c, located, lookup.id));
      return written;
    } catch (error) {
      await restoreDirectoryExternalId(c, located, lookup.id);
      throw error;
    }
  };
  const [[row]] = await write();
  if (!row) {
    if (ifMatch.kind === "versions") {
      await findVisible(db, principal, match);
      throw preconditionFailed();
    }
    throw notFound("Organization");
  }
  setETag(c, row);
  return serializeOrganization(row);
}

/** A partner's listing reads the directory, then the shards it names; an organization's token, its own shard. */
export const list: AppRouteHandler<routes.ListRoute> = async (c) => {
  const query = c.req.valid("query");
  if (c.var.principal.organizationId === null) {
    const rows = await partnerPage(c, query, pageFilters(query));
    return c.json(pageResult(c, rows, query.limit).map(serializeOrganization), 200);
  }
  const rows = await visiblePage(c.var.db, c.var.principal, query);
  return c.json(pageResult(c, rows, query.limit).map(serializeOrganization), 200);
};

export const getOne: AppRouteHandler<routes.GetOneRoute> = async (c) => {
  const { organization_id } = c.req.valid("param");
  const { db } = await locate(c, { id: organization_id });
  const row = await findVisible(db, c.var.principal, organizationMatch({ id: organization_id }));
  setETag(c, row);
  return c.json(serializeOrganization(row), 200);
};

export const getByExternalId: AppRouteHandler<routes.GetByExternalIdRoute> = async (c) => {
  const { externalId } = c.req.valid("param");
  const { db } = await locate(c, { externalId });
  const row = await findVisible(db, c.var.principal, organizationMatch({ externalId }));
  setETag(c, row);
  return c.json(serializeOrganization(row), 200);
};

const newOrganization = (partnerId: string, body: routes.CreateBody, now: Date, sandbox = false) => ({
  id: newId(now.getTime()),
  partnerId,
  ...body,
  sandbox,
  createdAt: now,
  updatedAt: now,
});

/**
 * Writes a new organization, with what `statements` add, on NEW_ORGANIZATION_SHARD (an EU organization: the first
 * shard of the EU region) and enters it in the directory (id, partner, externalId and shard: nothing personal):
 * one batch on DB; else the directory entry first (an externalId taken on any shard is 409) and removed again when
 * the shard's batch did not write the organization. The request is routed to that shard (its bookmark is the response's).
 */
async function place<T extends readonly [Statement, ...Statement[]]>(
  c: AppContext,
  organization: ReturnType<typeof newOrganization>,
  statements: (db: Database) => T,
) {
  const shard = placementOf(shardConfig(c.env), organization.dataRegion);
  if (shard === null) {
    throw validationFailed([{ path: "dataRegion", message: `this deployment has no shard in the ${organization.dataRegion} region` }]);
  }
  const entry = directoryEntry(c, organization, shard);
  const db = routeTo(c, shard);
  const writer = { db, principal: c.var.principal };
  if (shard === DIRECTORY_SHARD) {
    const [first, ...rest] = statements(db);
    return uniquely(guardedBatch(writer, [first, ...rest, entry]), ...EXTERNAL_ID_TAKEN) as unknown as Promise<BatchAnswers<T>>;
  }
  await uniquely(entry, ...EXTERNAL_ID_TAKEN);
  try {
    return await uniquely(guardedBatch(writer, statements(db)), ...EXTERNAL_ID_TAKEN);
  } catch (error) {
    // A refusal wrote nothing; another failure (a timeout, a lost connection) may have committed: ask the primary.
    if (error instanceof ProblemError || !(await writtenOn(c.env, shard, organization.id))) await removeDirectoryEntry(c, organization.id);
    throw error;
  }
}

export const create: AppRouteHandler<routes.CreateRoute> = async (c) => {
  const row = newOrganization(c.var.principal.partnerId, c.req.valid("json"), new Date());
  const [[created]] = await place(c, row, (db) => [insertOrganization(db, row)] as const);
  setETag(c, created!);
  return c.json(serializeOrganization(created!), 201);
};

/** An organization with its defaults, and what `more` adds for it (a sandbox's seed), in one atomic write. */
async function createDefaulted<T extends { statements: (db: Database) => Statement[] } | null = null>(
  c: AppContext,
  organization: ReturnType<typeof newOrganization>,
  now: Date,
  more: (defaults: { employeeAccessRoleId: string; roleId: string }) => T = () => null as T,
) {
  const owned = () => ({ id: newId(now.getTime()), organizationId: organization.id, createdAt: now, updatedAt: now });
  const defaultAccessRoles = DEFAULT_ACCESS_ROLES.map((role) => ({ ...owned(), ...role }));
  const defaultRoles = [{ ...owned(), name: DEFAULT_ROLE_NAME }];
  const defaultPolicyTypes = DEFAULT_POLICY_TYPES.map((type) => ({ ...owned(), ...type }));
  const employee = defaultAccessRoles.find((role) => role.name === EMPLOYEE_ACCESS_ROLE)!;
  const extra = more({ employeeAccessRoleId: employee.id, roleId: defaultRoles[0]!.id });
  const [[created]] = await place(
    c,
    organization,
    (db) =>
      [
        insertOrganization(db, organization),
        ...defaultsStatements(db, { organizationId: organization.id, defaultAccessRoles, defaultRoles, defaultPolicyTypes, now }),
        ...(extra?.statements(db) ?? []),
      ] as const,
  );
  setETag(c, created!);
  const pick = ({ id, name }: { id: string; name: string }) => ({ id, name });
  const answer = {
    ...serializeOrganization(created!),
    defaults: {
      accessRoles: defaultAccessRoles.map((r) => ({ ...pick(r), permissions: r.permissions })),
      roles: defaultRoles.map(pick),
      policyTypes: defaultPolicyTypes.map((t) => ({ ...pick(t), type: t.type })),
    },
  };
  return { answer, extra };
}

export const createWithDefaults: AppRouteHandler<routes.CreateWithDefaultsRoute> = async (c) => {
  const now = new Date();
  const organization = newOrganization(c.var.principal.partnerId, c.req.valid("json"), now);
  return c.json((await createDefaulted(c, organization, now)).answer, 201);
};

/** A sandbox: an organization with its defaults, `sandbox: true` for good, and on request its seed, in one write. */
export const createSandbox: AppRouteHandler<routes.CreateSandboxRoute> = async (c) => {
  const now = new Date();
  const { seed, ...body } = c.req.valid("json");
  const organization = newOrganization(c.var.principal.partnerId, body, now, true);
  const { answer, extra } = await createDefaulted(c, organization, now, (defaults) =>
    seed ? sandboxSeed(organization, defaults, now) : null,
  );
  const seeded = extra && { locationId: extra.locationId, staffMemberIds: extra.staffMemberIds, scheduleEntryIds: extra.scheduleEntryIds };
  return c.json({ ...answer, seeded }, 201);
};

export const patch: AppRouteHandler<routes.PatchRoute> = async (c) => {
  const { organization_id } = c.req.valid("param");
  const { sandbox, ...changes } = c.req.valid("json");
  // Read-only: the schema leaves it out (zod strips it), so it is looked for in the body as sent.
  const sent: unknown = await c.req.json().catch(() => null);
  if (typeof sent === "object" && sent !== null && "dataRegion" in sent) {
    throw validationFailed([{ path: "dataRegion", message: "is read-only: an operator's shard move changes the region" }]);
  }
  // `sandbox` never changes (a trigger refuses it too): its value is read, and the other one refused, before any write.
  if (sandbox !== undefined) {
    const { db } = await locate(c, { id: organization_id });
    const row = await findVisible(db, c.var.principal, organizationMatch({ id: organization_id }));
    if (row.sandbox !== sandbox) {
      throw conflict(
        "SANDBOX_PERMANENT",
        row.sandbox ? "A sandbox never becomes a live organization." : "A live organization never becomes a sandbox.",
      );
    }
  }
  return c.json(await updateVisible(c, { id: organization_id }, { ...changes, updatedAt: new Date() }, "organization.updated"), 200);
};

/**
 * A deleted organization's kiosk photos go with it: their R2 objects at once, after the deletion committed; what
 * that could not delete, and the rows, the Cron's sweep removes (jobs/sweep-photos).
 */
async function deletePhotosOf(c: AppContext, organizationId: string) {
  try {
    await deleteFilesUnder(filesOf(c.env, c.var.shard), organizationPhotosPrefix(organizationId));
  } catch (error) {
    console.error(JSON.stringify({ requestId: c.get("requestId"), photosOf: organizationId, error: String(error) }));
  }
}

export const remove: AppRouteHandler<routes.RemoveRoute> = async (c) => {
  const { organization_id } = c.req.valid("param");
  const deleted = await updateVisible(c, { id: organization_id }, softDeleted(), "organization.deleted");
  await deletePhotosOf(c, deleted.id);
  return c.json(deleted, 200);
};

export const removeByExternalId: AppRouteHandler<routes.RemoveByExternalIdRoute> = async (c) => {
  const { externalId } = c.req.valid("param");
  const deleted = await updateVisible(c, { externalId }, softDeleted(), "organization.deleted");
  await deletePhotosOf(c, deleted.id);
  return c.json(deleted, 200);
};
