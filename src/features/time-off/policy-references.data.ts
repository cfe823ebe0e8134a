import { locations, policyTypes, roles, staffMembers } from "@db/schema";
import { and, eq } from "drizzle-orm";
import type { Database } from "@/data/client";
import { inJsonList } from "@/data/json-list";
import { inOrganization } from "@/data/tenancy";
import { invalidField } from "@/problems/problem";

interface References {
  typeId?: string;
  locationId?: string | null;
  defaultSettings?: { assignedStaff?: { type: string; value?: string } };
}

/**
 * Each id a policy body names must be a live record of the organization: an unknown one is a 400 naming it.
 * Answers the named policy type's kind (Vacation, Unpaid…), which defaults a new policy's `paid`.
 */
export async function assertPolicyReferences(db: Database, organizationId: string, body: References): Promise<{ typeKind?: string }> {
  const checks: Promise<void>[] = [];
  const exists = async (found: Promise<unknown[]>, path: string) => {
    if ((await found).length === 0) throw invalidField(path, "no such record in this organization");
  };
  let typeKind: string | undefined;
  if (body.typeId) {
    const type = db
      .select({ type: policyTypes.type })
      .from(policyTypes)
      .where(and(inOrganization(policyTypes, organizationId), eq(policyTypes.id, body.typeId)));
    checks.push(
      exists(
        type.then((rows) => {
          typeKind = rows[0]?.type;
          return rows;
        }),
        "typeId",
      ),
    );
  }
  if (body.locationId) {
    checks.push(
      exists(
        db
          .select({ id: locations.id })
          .from(locations)
          .where(and(inOrganization(locations, organizationId), eq(locations.id, body.locationId))),
        "locationId",
      ),
    );
  }
  const rule = body.defaultSettings?.assignedStaff;
  if (rule?.type === "Role" && rule.value) {
    checks.push(
      exists(
        db
          .select({ id: roles.id })
          .from(roles)
          .where(and(inOrganization(roles, organizationId), eq(roles.id, rule.value))),
        "defaultSettings.assignedStaff.value",
      ),
    );
  }
  if (rule?.type === "Location" && rule.value) {
    checks.push(
      exists(
        db
          .select({ id: locations.id })
          .from(locations)
          .where(and(inOrganization(locations, organizationId), eq(locations.id, rule.value))),
        "defaultSettings.assignedStaff.value",
      ),
    );
  }
  await Promise.all(checks);
  return { typeKind };
}

/** Staff ids by external id; any external id of no live staff member is a 400 naming them all. */
export async function staffByExternalId(db: Database, organizationId: string, externalIds: string[]): Promise<Map<string, string>> {
  if (externalIds.length === 0) return new Map();
  const rows = await db
    .select({ id: staffMembers.id, externalId: staffMembers.externalId })
    .from(staffMembers)
    .where(and(inOrganization(staffMembers, organizationId), inJsonList(staffMembers.externalId, externalIds)));
  const found = new Map(rows.map((r) => [r.externalId!, r.id]));
  const unknown = [...new Set(externalIds.filter((id) => !found.has(id)))];
  if (unknown.length > 0) {
    throw invalidField("workerPolicies", `no staff member with externalEmployeeId ${unknown.join(", ")}`);
  }
  return found;
}
