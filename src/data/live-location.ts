import { locations } from "@db/schema";
import { and, eq } from "drizzle-orm";
import { type Placeholders, prepared } from "./prepared";
import { inOrganization } from "./tenancy";

export type AtLocation = Placeholders<{ organizationId: string; locationId: string }>;

/** The location, while it is live (built once per isolate: the punches, shift state and every schedule route read it). */
export const liveLocation = prepared((db, p: AtLocation) =>
  db
    .select()
    .from(locations)
    .where(and(inOrganization(locations, p.organizationId), eq(locations.id, p.locationId))),
);
