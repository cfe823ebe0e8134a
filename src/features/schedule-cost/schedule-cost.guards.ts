import { locations } from "@db/schema";
import { and, eq } from "drizzle-orm";
import type { Database } from "@/data/client";
import { inOrganization } from "@/data/tenancy";
import { notFound } from "@/problems/problem";

/** The live location of the organization, with its zone; another organization's or a deleted one is 404. */
export async function loadLocation(db: Database, organizationId: string, locationId: string) {
  const [location] = await db
    .select({ id: locations.id, timezone: locations.timezone })
    .from(locations)
    .where(and(inOrganization(locations, organizationId), eq(locations.id, locationId)));
  if (!location) throw notFound("Location");
  return location;
}
