import { tenantDb } from "./shards";

/**
 * Makes `statements` (SQL with literal values) run inside the write batch of the request sent with Idempotency-Key
 * `key`, right after the batch records that key (its first write) and before the statements that follow: exactly
 * as if another request had written them between that request's read and its write. They share the batch's fate,
 * so a refused write undoes them too. The trigger lives on the shard of the organizations tests create. Answers a function that removes the trigger.
 */
export async function meanwhile(key: string, statements: string[]) {
  const name = `meanwhile_${key.replace(/\W/g, "_")}`;
  await tenantDb()
    .prepare(
      `CREATE TRIGGER ${name} AFTER INSERT ON idempotency_keys WHEN NEW.key = '${key}' BEGIN ${statements.map((s) => `${s};`).join(" ")} END`,
    )
    .run();
  return () => tenantDb().prepare(`DROP TRIGGER IF EXISTS ${name}`).run();
}

export const lockStatement = (organizationId: string, locationId: string, date: string) =>
  `INSERT INTO locked_days (organization_id, location_id, date, locked_by, created_at)
   VALUES ('${organizationId}', '${locationId}', '${date}', 'meanwhile', 0)`;
