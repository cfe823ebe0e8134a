import { index, integer, sqliteTable, text } from "drizzle-orm/sqlite-core";
import { timestamp } from "./columns";
import { locations, organizations } from "./directory";
import { devices } from "./kiosk";

/**
 * Kiosk photos: the bytes in R2 (FILES) under photos/{organizationId}/{id}, what D1 keeps of them here. A photo is
 * taken before its punch (POST /api/kiosk/photos) and attached to the punch's shift by the punch's own batch
 * (shift_id and employee_id set once, while NULL); the event that took it names it (shift_events.photo_id).
 */
export const photos = sqliteTable(
  "photos",
  {
    id: text("id").primaryKey(),
    organizationId: text("organization_id")
      .notNull()
      .references(() => organizations.id),
    locationId: text("location_id")
      .notNull()
      .references(() => locations.id),
    /** The kiosk that took it. */
    deviceId: text("device_id")
      .notNull()
      .references(() => devices.id),
    employeeId: text("employee_id"),
    shiftId: text("shift_id"),
    objectKey: text("object_key").notNull(),
    size: integer("size").notNull(),
    sha256: text("sha256").notNull(),
    contentType: text("content_type", { enum: ["image/jpeg", "image/png", "image/webp"] }).notNull(),
    createdAt: timestamp("created_at").notNull(),
  },
  (t) => [index("photos_shift").on(t.shiftId, t.createdAt), index("photos_organization").on(t.organizationId, t.id)],
);
