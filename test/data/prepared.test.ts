import { env } from "cloudflare:test";
import { roles } from "@db/schema";
import { and, gte } from "drizzle-orm";
import { beforeAll, describe, expect, it } from "vitest";
import { createDatabase, type Database } from "@/data/client";
import { type Placeholders, prepared } from "@/data/prepared";
import { shardConfig } from "@/data/shards";
import { inOrganization } from "@/data/tenancy";
import { insertOrganization, tenantDb } from "../helpers/shards";
import { DEV_PARTNER } from "../helpers/tokens";

type RoleQuery = { organizationId: string; since: number };

const direct = (db: Database, { organizationId, since }: RoleQuery) =>
  db
    .select()
    .from(roles)
    .where(and(inOrganization(roles, organizationId), gte(roles.createdAt, new Date(since))))
    .orderBy(roles.name);

const rolesSince = prepared((db, p: Placeholders<RoleQuery>) =>
  db
    .select()
    .from(roles)
    .where(and(inOrganization(roles, p.organizationId), gte(roles.createdAt, p.since)))
    .orderBy(roles.name),
);

/** What drizzle's batch reads of an item: its query, SQL and bound values. */
const queryOf = (statement: unknown) =>
  (statement as { _prepare(): { getQuery(): { sql: string; params: unknown[] } } })._prepare().getQuery();

const at = new Date("2026-03-02T10:00:00.000Z");
let db: Database;
let first: string;
let second: string;

beforeAll(async () => {
  db = createDatabase(tenantDb());
  const shard = shardConfig(env).placement;
  first = await insertOrganization(shard, { partnerId: DEV_PARTNER });
  second = await insertOrganization(shard, { partnerId: DEV_PARTNER });
  const role = (organizationId: string, name: string, createdAt: Date) => ({
    id: crypto.randomUUID(),
    organizationId,
    name,
    hourlyWage: 12.5,
    createdAt,
    updatedAt: createdAt,
  });
  await db.insert(roles).values([role(first, "Barista", at), role(first, "Baker", new Date(at.getTime() - 1)), role(second, "Cook", at)]);
});

describe("prepared", () => {
  it("sends the SQL and values drizzle builds for the same query", () => {
    const values = { organizationId: first, since: at.getTime() };
    const built = direct(db, values).toSQL();
    expect(queryOf(rolesSince(db, values))).toEqual({ sql: built.sql, params: built.params });
  });

  it("answers drizzle's typed rows inside a batch, beside statements drizzle builds per request", async () => {
    const values = { organizationId: first, since: at.getTime() };
    const [prepared, expected] = await db.batch([rolesSince(db, values), direct(db, values)]);
    expect(prepared).toEqual(expected);
    expect(prepared.map((r) => r.name)).toEqual(["Barista"]);
    expect(prepared[0]!.createdAt).toEqual(at);
    expect(prepared[0]!.active).toBe(true);
  });

  it("binds each call's own values to the statement it built once, awaited alone too", async () => {
    const since = at.getTime() - 1;
    expect((await rolesSince(db, { organizationId: first, since })).map((r) => r.name)).toEqual(["Baker", "Barista"]);
    expect((await rolesSince(db, { organizationId: second, since })).map((r) => r.name)).toEqual(["Cook"]);
  });
});
