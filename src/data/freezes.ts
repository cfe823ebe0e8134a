import { organizationFreezes } from "@db/schema";
import { type SQL, type SQLWrapper, sql } from "drizzle-orm";

/** True while `organizationId` is frozen on this database for a move between shards (src/shards). */
export const frozenHere = (organizationId: SQLWrapper | string): SQL =>
  sql`EXISTS (SELECT 1 FROM ${organizationFreezes} WHERE ${organizationFreezes.organizationId} = ${organizationId})`;
