import { env } from "cloudflare:test";
import { accessRoles, organizations, roles } from "@db/schema";
import { eq, getTableColumns, sql } from "drizzle-orm";
import { beforeAll, describe, expect, it } from "vitest";
import { createDatabase, type Database } from "@/data/client";
import { readRows, rowReader, type SelectedField } from "@/data/row-mapping";
import { shardConfig } from "@/data/shards";
import { insertOrganization, tenantDb } from "../helpers/shards";
import { DEV_PARTNER } from "../helpers/tokens";

const at = new Date("2026-03-02T10:00:00.000Z");
let db: Database;
let organizationId: string;

beforeAll(async () => {
  db = createDatabase(tenantDb());
  organizationId = await insertOrganization(shardConfig(env).placement, { partnerId: DEV_PARTNER });
  const lifecycle = (offset: number) => ({ createdAt: new Date(at.getTime() + offset), updatedAt: at });
  await db.insert(roles).values([
    { id: crypto.randomUUID(), organizationId, name: "Barista", hourlyWage: 12.5, ...lifecycle(0) },
    { id: crypto.randomUUID(), organizationId, name: "Baker", hourlyWage: null, active: false, deletedAt: at, ...lifecycle(1) },
  ]);
  await db
    .insert(accessRoles)
    .values({ id: crypto.randomUUID(), organizationId, name: "Leads", permissions: ["shifts:read"], ...lifecycle(0) });
});

const fields = (columns: Record<string, unknown>): SelectedField[] =>
  Object.entries(columns).map(([key, field]) => ({ path: [key], field }));

const rolesOf = (database: Database) => database.select().from(roles).where(eq(roles.organizationId, organizationId)).orderBy(roles.name);

describe("readRows", () => {
  it("answers the rows drizzle's own mapping answers, in a batch and alone: instants, booleans, nulls, JSON", async () => {
    expect(rowReader(fields(getTableColumns(roles)))).not.toBeNull();
    const [read, drizzles] = await db.batch([readRows(db, rolesOf(db)), rolesOf(db)]);
    expect(read).toEqual(drizzles);
    expect(await readRows(db, rolesOf(db))).toEqual(drizzles); // awaited alone: D1's positional rows (raw)
    expect(read.map((r) => [r.name, r.active, r.hourlyWage, r.deletedAt])).toEqual([
      ["Baker", false, null, at],
      ["Barista", true, 12.5, null],
    ]);
    expect(read[1]!.createdAt).toEqual(at);
    const access = db.select().from(accessRoles).where(eq(accessRoles.organizationId, organizationId));
    const [grants] = await db.batch([readRows(db, access)]);
    expect(grants.map((g) => g.permissions)).toEqual([["shifts:read"]]);
  });

  it("reads chosen columns under their keys and aliased SQL through its decoder, awaited alone too", async () => {
    const query = db
      .select({ title: roles.name, since: roles.createdAt, letters: sql`length(${roles.name})`.mapWith(String).as("letters") })
      .from(roles)
      .where(eq(roles.organizationId, organizationId))
      .orderBy(roles.name);
    expect(await readRows(db, query)).toEqual([
      { title: "Baker", since: new Date(at.getTime() + 1), letters: "5" },
      { title: "Barista", since: at, letters: "7" },
    ]);
  });

  it("leaves to drizzle what it cannot read by name: joined objects, two columns of one name", async () => {
    const joined = db
      .select({ role: { name: roles.name }, organization: { id: organizations.id } })
      .from(roles)
      .innerJoin(organizations, eq(organizations.id, roles.organizationId))
      .where(eq(roles.organizationId, organizationId))
      .orderBy(roles.name);
    expect(await readRows(db, joined)).toEqual(await joined);
    expect((await readRows(db, joined))[0]).toEqual({ role: { name: "Baker" }, organization: { id: organizationId } });
    expect(rowReader(fields({ role: roles.id, organization: organizations.id }))).toBeNull();
    expect(rowReader(fields({ role: roles.id, count: sql`count(*)` }))).toBeNull();
    expect(rowReader(fields({ role: roles.id, name: roles.name }))).not.toBeNull();
  });
});
