import { demandIntervals, laborTargets } from "@db/schema";
import { type SQL, sql } from "drizzle-orm";
import type { SQLiteColumn } from "drizzle-orm/sqlite-core";
import { guard } from "@/data/write/guard";
import { notFound } from "@/problems/problem";

/** The organization id, or NULL unless the location is a live one of that organization (deleted meanwhile: 404). */
const ofLiveLocation = (organizationId: string, locationId: string): SQL =>
  sql`(SELECT organization_id FROM locations WHERE id = ${locationId} AND organization_id = ${organizationId} AND deleted_at IS NULL)`;

const locationGuard = (column: SQLiteColumn) => guard({ column, problem: () => notFound("Location"), sql: ofLiveLocation });

/**
 * demand_intervals.organization_id of an upload's first row: the batch is atomic, so one guarded row refuses all of
 * it (two more bound parameters, not two a row).
 */
export const demandLocationLive = locationGuard(demandIntervals.organizationId);

/** labor_targets.organization_id: the targets of a live location of the organization only. */
export const targetsLocationLive = locationGuard(laborTargets.organizationId);
