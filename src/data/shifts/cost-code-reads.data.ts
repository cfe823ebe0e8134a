import { costCodes } from "@db/schema";
import { and, eq } from "drizzle-orm";
import type { Database } from "@/data/client";
import { type Placeholders, prepared } from "@/data/prepared";
import { inOrganization } from "@/data/tenancy";

/**
 * The live cost code of the organization a shift write names (for its batch of reads): none is the request's
 * reference error (another organization's code, or no code), told before anything else; whether the worker may
 * charge it is the write's own guard (shifts.guards costCodeAssigned).
 */
const liveCostCode = prepared((db, p: Placeholders<{ organizationId: string; costCodeId: string }>) =>
  db
    .select({ id: costCodes.id })
    .from(costCodes)
    .where(and(inOrganization(costCodes, p.organizationId), eq(costCodes.id, p.costCodeId))),
);
export const costCodeRead = (db: Database, organizationId: string, costCodeId: string) => liveCostCode(db, { organizationId, costCodeId });
