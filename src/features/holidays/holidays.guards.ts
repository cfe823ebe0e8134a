import { holidayOverrides } from "@db/schema";
import { type SQL, sql } from "drizzle-orm";
import { guard } from "@/data/write/guard";
import { notFound } from "@/problems/problem";

/** holiday_overrides.organization_id: the organization, NULL once the location is deleted or is not its. */
export const overridesLocationLive = guard({
  column: holidayOverrides.organizationId,
  problem: () => notFound("Location"),
  sql: (organizationId: string, locationId: string): SQL =>
    sql`(SELECT organization_id FROM locations WHERE id = ${locationId} AND organization_id = ${organizationId}
      AND deleted_at IS NULL)`,
});
