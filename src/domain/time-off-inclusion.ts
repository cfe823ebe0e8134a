export interface AssignedStaff {
  type: "All" | "Role" | "Location" | "EmploymentType";
  value?: string;
}

export interface WorkerFacts {
  roleIds: readonly string[];
  locationIds: readonly string[];
  employmentType: string | null;
}

/**
 * Whether a worker is included in a policy: an explicit choice (`isIncluded` on their worker policy) wins,
 * otherwise the policy's assignedStaff rule decides; no rule includes nobody. The SQL twin of this rule is
 * `includedSql` in features/time-off/inclusion.data.ts.
 */
export function isIncluded(explicit: boolean | null, rule: AssignedStaff | undefined, worker: WorkerFacts): boolean {
  if (explicit !== null) return explicit;
  switch (rule?.type) {
    case "All":
      return true;
    case "Role":
      return rule.value !== undefined && worker.roleIds.includes(rule.value);
    case "Location":
      return rule.value !== undefined && worker.locationIds.includes(rule.value);
    case "EmploymentType":
      return rule.value !== undefined && worker.employmentType === rule.value;
    default:
      return false;
  }
}

/** The instant accrual starts from: the latest of the policy's activation, the worker's creation, an explicit inclusion. */
export const inclusionStart = (activatedAt: Date, workerCreatedAt: Date, includedAt: Date | null): Date =>
  new Date(Math.max(activatedAt.getTime(), workerCreatedAt.getTime(), includedAt?.getTime() ?? 0));
