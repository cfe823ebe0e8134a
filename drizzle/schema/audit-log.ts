import { index, integer, sqliteTable, text } from "drizzle-orm/sqlite-core";
import { timestamp } from "./columns";

/**
 * The audit log: one entry per event a request's write recorded, written in that write's own batch
 * (data/write/guarded-batch), so no write can leave one out. `id` is the event's id. Who (actor, device), what
 * (operation, event type, resource and its id, the staff member it is about), when, from where (the request's IP
 * country), and for records a person may dispute (domain/audit) the record before and after, each as its event
 * form (event-forms/serializers). Never updated; deleted only with its organization (triggers in the migration).
 */
export const auditLog = sqliteTable(
  "audit_log",
  {
    id: text("id").primaryKey(),
    organizationId: text("organization_id").notNull(),
    sequence: integer("sequence").notNull(),
    at: timestamp("at").notNull(),
    actorType: text("actor_type").notNull(),
    actorId: text("actor_id").notNull(),
    deviceId: text("device_id"),
    operationId: text("operation_id"),
    eventType: text("event_type").notNull(),
    resourceType: text("resource_type").notNull(),
    resourceId: text("resource_id"),
    staffMemberId: text("staff_member_id"),
    ipCountry: text("ip_country"),
    beforeForm: text("before_form"),
    before: text("before"),
    afterForm: text("after_form"),
    after: text("after"),
  },
  (t) => [
    index("audit_log_organization_sequence").on(t.organizationId, t.sequence),
    index("audit_log_resource").on(t.organizationId, t.resourceType, t.resourceId, t.sequence),
    index("audit_log_staff_member").on(t.organizationId, t.staffMemberId, t.sequence),
    index("audit_log_actor").on(t.organizationId, t.actorId, t.sequence),
  ],
);
