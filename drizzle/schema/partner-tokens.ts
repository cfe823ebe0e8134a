import { index, primaryKey, sqliteTable, text } from "drizzle-orm/sqlite-core";
import { timestamp } from "./columns";

/**
 * The partner tokens exchanged, by their `jti`: a (partner, jti) is exchanged once within the token's lifetime, the
 * primary key deciding between two exchanges at once. Kept until the token could no longer verify (its `exp` plus
 * the clock tolerance), then pruned by the Cron. Written and read in the directory's database (DB) only, where the
 * exchange runs before it knows any organization's shard.
 */
export const partnerTokenUses = sqliteTable(
  "partner_token_uses",
  {
    partnerId: text("partner_id").notNull(),
    jti: text("jti").notNull(),
    expiresAt: timestamp("expires_at").notNull(),
  },
  (t) => [primaryKey({ columns: [t.partnerId, t.jti] }), index("partner_token_uses_expires").on(t.expiresAt)],
);

/**
 * Each partner's pinned API version (src/domain/api-versions): the version current at its first token exchange,
 * kept for good. A request's `Shiftline-Version` header overrides it for that request. Directory database (DB) only.
 */
export const partnerApiVersions = sqliteTable("partner_api_versions", {
  partnerId: text("partner_id").primaryKey(),
  version: text("version").notNull(),
  pinnedAt: timestamp("pinned_at").notNull(),
});
