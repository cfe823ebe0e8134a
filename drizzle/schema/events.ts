import { index, integer, sqliteTable, text, uniqueIndex } from "drizzle-orm/sqlite-core";
import { timestamp } from "./columns";

/**
 * The outbox: every change the API makes, written in the same batch as the change. `sequence` rises by one per
 * organization, assigned inside that batch (see src/data/outbox/outbox.ts). `data` is JSON: the resource as the API answers
 * it (`form` "wire"), or a snapshot of the written row serialized when read (`form` names the table).
 */
export const events = sqliteTable(
  "events",
  {
    id: text("id").primaryKey(),
    organizationId: text("organization_id").notNull(),
    sequence: integer("sequence").notNull(),
    type: text("type").notNull(),
    occurredAt: timestamp("occurred_at").notNull(),
    form: text("form").notNull(),
    data: text("data").notNull(),
  },
  (t) => [uniqueIndex("events_organization_sequence").on(t.organizationId, t.sequence), index("events_occurred_at").on(t.occurredAt)],
);
