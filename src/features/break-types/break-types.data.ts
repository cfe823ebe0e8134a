import { breakTypes } from "@db/schema";
import { and, eq } from "drizzle-orm";

/** The organization's break types, as the crud helpers (platform/crud) list, read and write them. */
export const breakTypeRecords = breakTypes;

/** The break types of one location (a list's filter). */
export const atLocation = (locationId: string) => eq(breakTypes.locationId, locationId);

/** The break type `breakId` of the location (a read or write's match). */
export const breakTypeAt = (locationId: string, breakId: string) => and(atLocation(locationId), eq(breakTypes.id, breakId))!;
