import { locations } from "@db/schema";
import { eq, sql } from "drizzle-orm";

/** The organization's locations, as the crud helpers (platform/crud) list, read and write them. */
export const locationRecords = locations;

/**
 * "Contains", ignoring ASCII case (SQLite's lower() folds A-Z only; other letters match as sent). Not LIKE: D1
 * refuses LIKE patterns over 50 bytes, and instr() takes every character literally, `%` and `_` included.
 */
export const nameContains = (text: string) => sql`instr(lower(${locations.name}), lower(${text})) > 0`;

/** The location with this externalId (a read's match). */
export const withExternalId = (externalId: string) => eq(locations.externalId, externalId);
