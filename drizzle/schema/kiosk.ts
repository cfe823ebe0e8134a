import { sql } from "drizzle-orm";
import { index, integer, sqliteTable, text, uniqueIndex } from "drizzle-orm/sqlite-core";
import { lifecycle, timestamp } from "./columns";
import { locations, organizations, staffMembers } from "./directory";

/**
 * Shared kiosks at a location's door. A device is enrolled once with a single-use code (PENDING until then), then
 * calls the kiosk operations with its own token. Only SHA-256 hashes of the code and the token are stored. Revoking
 * soft-deletes the row and keeps its token hash, so the revoked token's next request is told DEVICE_REVOKED.
 */
export const devices = sqliteTable(
  "devices",
  {
    id: text("id").primaryKey(),
    organizationId: text("organization_id")
      .notNull()
      .references(() => organizations.id),
    locationId: text("location_id")
      .notNull()
      .references(() => locations.id),
    name: text("name").notNull(),
    /** PENDING (not enrolled yet), ACTIVE, REVOKED. */
    status: text("status", { enum: ["PENDING", "ACTIVE", "REVOKED"] }).notNull(),
    /** SHA-256 (hex) of the enrollment code; null once used (or replaced by a token through rotate). */
    enrollmentCodeHash: text("enrollment_code_hash"),
    enrollmentExpiresAt: timestamp("enrollment_expires_at"),
    /** SHA-256 (hex) of the device token; null until enrolled. */
    tokenHash: text("token_hash"),
    lastSeenAt: timestamp("last_seen_at"),
    ...lifecycle,
  },
  (t) => [
    uniqueIndex("devices_enrollment_code").on(t.enrollmentCodeHash).where(sql`enrollment_code_hash IS NOT NULL`),
    uniqueIndex("devices_token").on(t.tokenHash).where(sql`token_hash IS NOT NULL`),
    index("devices_location").on(t.organizationId, t.locationId, t.id),
  ],
);

/** A staff member's kiosk PIN: only its salted PBKDF2-SHA-256 hash, with the iterations it was derived with. */
export const staffMemberPins = sqliteTable("staff_member_pins", {
  employeeId: text("employee_id")
    .primaryKey()
    .references(() => staffMembers.id),
  organizationId: text("organization_id")
    .notNull()
    .references(() => organizations.id),
  /** base64 of the derived 32 bytes. */
  hash: text("hash").notNull(),
  /** base64 of the 16 random bytes. */
  salt: text("salt").notNull(),
  iterations: integer("iterations").notNull(),
  updatedAt: timestamp("updated_at").notNull(),
});

/**
 * Wrong PINs, one row each, at the device's location, recorded only while fewer than five of the member's exist there
 * in the last 15 minutes (one conditional INSERT) and only at a location the member is assigned to: five in the
 * window lock the member's PIN on that location's devices until the oldest leaves it.
 */
export const pinFailures = sqliteTable(
  "pin_failures",
  {
    id: text("id").primaryKey(),
    organizationId: text("organization_id")
      .notNull()
      .references(() => organizations.id),
    employeeId: text("employee_id")
      .notNull()
      .references(() => staffMembers.id),
    deviceId: text("device_id"),
    /** The device's location (null only for a failure recorded without a device, before failures had locations). */
    locationId: text("location_id"),
    failedAt: timestamp("failed_at").notNull(),
  },
  (t) => [index("pin_failures_member_location").on(t.employeeId, t.locationId, t.failedAt)],
);
