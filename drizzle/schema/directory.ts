import { sql } from "drizzle-orm";
import { index, integer, real, sqliteTable, text, uniqueIndex } from "drizzle-orm/sqlite-core";
import { lifecycle, timestamp } from "./columns";

export const organizations = sqliteTable(
  "organizations",
  {
    id: text("id").primaryKey(),
    partnerId: text("partner_id").notNull(),
    name: text("name").notNull(),
    externalId: text("external_id"),
    timezone: text("timezone").notNull().default("UTC"),
    country: text("country"),
    currencyCode: text("currency_code"),
    /** A partner's test organization (POST /organizations/sandbox): set at creation, never changed. */
    sandbox: integer("sandbox", { mode: "boolean" }).notNull().default(false),
    /** A sandbox's test clock: how far its time runs ahead of the real clock (src/data/clock.ts); 0 for every live organization. */
    clockOffsetMs: integer("clock_offset_ms").notNull().default(0),
    /**
     * Where its data lives: the region of the shard holding it (src/data/shards.ts). Set at creation; only a shard
     * move to another region's shard changes it (src/shards/move-organization.ts, at the flip).
     */
    dataRegion: text("data_region", { enum: ["DEFAULT", "EU"] })
      .notNull()
      .default("DEFAULT"),
    ...lifecycle,
  },
  (t) => [
    uniqueIndex("organizations_partner_external_id").on(t.partnerId, t.externalId),
    index("organizations_partner_updated").on(t.partnerId, t.updatedAt),
    // The live passes leave sandboxes out, and the Cron finds them to run at their own time (src/data/clock.ts).
    index("organizations_sandboxes").on(t.id).where(sql`sandbox = 1`),
  ],
);

export const locations = sqliteTable(
  "locations",
  {
    id: text("id").primaryKey(),
    organizationId: text("organization_id")
      .notNull()
      .references(() => organizations.id),
    name: text("name").notNull(),
    website: text("website"),
    country: text("country"),
    state: text("state"),
    city: text("city"),
    addressLine1: text("address_line1"),
    addressLine2: text("address_line2"),
    zipCode: integer("zip_code"),
    externalId: text("external_id"),
    longitude: text("longitude"),
    latitude: text("latitude"),
    clockInDistanceCentimeters: integer("clock_in_distance_centimeters"),
    clockOutDistanceCentimeters: integer("clock_out_distance_centimeters"),
    breakStartDistanceCentimeters: integer("break_start_distance_centimeters"),
    breakEndDistanceCentimeters: integer("break_end_distance_centimeters"),
    timezone: text("timezone").notNull().default("UTC"),
    geofenceMode: text("geofence_mode", { enum: ["block", "flag"] })
      .notNull()
      .default("block"),
    /** A kiosk punch here needs a photo (POST /api/kiosk/photos, then its photoId): else 422 PHOTO_REQUIRED. */
    kioskPhotoRequired: integer("kiosk_photo_required", { mode: "boolean" }).notNull().default(false),
    ...lifecycle,
  },
  (t) => [
    uniqueIndex("locations_organization_external_id").on(t.organizationId, t.externalId),
    index("locations_organization_id").on(t.organizationId, t.id),
  ],
);

export const accessRoles = sqliteTable(
  "access_roles",
  {
    id: text("id").primaryKey(),
    organizationId: text("organization_id")
      .notNull()
      .references(() => organizations.id),
    name: text("name").notNull(),
    /** JSON array of permission strings. */
    permissions: text("permissions", { mode: "json" }).$type<string[]>().notNull(),
    /** Bumped whenever `permissions` change: access tokens name the version they were issued against. */
    permissionsVersion: integer("permissions_version").notNull().default(1),
    ...lifecycle,
  },
  (t) => [
    uniqueIndex("access_roles_organization_name").on(t.organizationId, t.name).where(sql`deleted_at IS NULL`),
    index("access_roles_organization_id").on(t.organizationId, t.id),
  ],
);

export const roles = sqliteTable(
  "roles",
  {
    id: text("id").primaryKey(),
    organizationId: text("organization_id")
      .notNull()
      .references(() => organizations.id),
    name: text("name").notNull(),
    hourlyWage: real("hourly_wage"),
    externalId: text("external_id"),
    ...lifecycle,
  },
  (t) => [
    uniqueIndex("roles_organization_external_id").on(t.organizationId, t.externalId),
    index("roles_organization_id").on(t.organizationId, t.id),
  ],
);

export const staffMembers = sqliteTable(
  "staff_members",
  {
    id: text("id").primaryKey(),
    organizationId: text("organization_id")
      .notNull()
      .references(() => organizations.id),
    name: text("name").notNull(),
    email: text("email"),
    phoneNumber: text("phone_number"),
    externalId: text("external_id"),
    externalPayrollId: text("external_payroll_id"),
    accessRoleId: text("access_role_id")
      .notNull()
      .references(() => accessRoles.id),
    hourlyWage: real("hourly_wage"),
    wageType: text("wage_type"),
    employmentType: text("employment_type"),
    /** A secondary school student: an award's shorter minimum engagement (General Retail Industry Award cl. 11.3). */
    schoolStudent: integer("school_student", { mode: "boolean" }).notNull().default(false),
    currencyCode: text("currency_code"),
    birthDate: timestamp("birth_date"),
    /** Assignments are small id sets read with the member (clock-in checks them), so they live on the row. */
    locationIds: text("location_ids", { mode: "json" }).$type<string[]>().notNull(),
    roleIds: text("role_ids", { mode: "json" }).$type<string[]>().notNull(),
    /**
     * Dated meal-period waivers, oldest first: from each effectiveFrom (a local date) on, the meals the staff member
     * waived by mutual consent (Cal. Labor Code 512(a)); the newest on or before a workday governs it.
     */
    mealWaivers: text("meal_waivers", { mode: "json" })
      .$type<{ effectiveFrom: string; firstMeal: boolean; secondMeal: boolean }[]>()
      .notNull()
      .default(sql`'[]'`),
    /** The staff member's id in each payroll provider (ADP_WFN file number, GUSTO employee UUID, CHECK, PAYCHEX ids). */
    payrollIds: text("payroll_ids", { mode: "json" })
      .$type<Partial<Record<"ADP_WFN" | "GUSTO" | "CHECK" | "PAYCHEX", string>>>()
      .notNull()
      .default(sql`'{}'`),
    /** The individual opt-out of the 48-hour weekly average (UK WTR 1998 reg. 5): in force from signedOn until withdrawnOn. */
    workingTimeOptOut: text("working_time_opt_out", { mode: "json" }).$type<{ signedOn: string; withdrawnOn: string | null }>(),
    ...lifecycle,
  },
  (t) => [
    uniqueIndex("staff_members_organization_external_id").on(t.organizationId, t.externalId),
    index("staff_members_organization_id").on(t.organizationId, t.id),
  ],
);
