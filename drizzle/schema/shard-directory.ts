import { index, sqliteTable, text, uniqueIndex } from "drizzle-orm/sqlite-core";
import { timestamp } from "./columns";

/**
 * The directory: which shard (a D1 binding name, src/data/shards.ts) holds each organization. Read from the DB
 * binding only; the table exists in every shard because every database gets the same migrations. It carries the
 * partner and externalId so that a partner's listing and its lookups by externalId are answered here, and so that
 * an externalId stays unique per partner across shards. A soft-deleted organization keeps its entry.
 */
export const organizationDirectory = sqliteTable(
  "organization_directory",
  {
    organizationId: text("organization_id").primaryKey(),
    partnerId: text("partner_id").notNull(),
    externalId: text("external_id"),
    shard: text("shard").notNull(),
    createdAt: timestamp("created_at").notNull(),
    updatedAt: timestamp("updated_at").notNull(),
  },
  (t) => [
    uniqueIndex("organization_directory_partner_external_id").on(t.partnerId, t.externalId),
    index("organization_directory_partner").on(t.partnerId, t.organizationId),
  ],
);
