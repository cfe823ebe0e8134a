/**
 * Organization shards: D1 bindings named in the SHARDS var (default "DB"). DB is always the first shard and also
 * holds the directory (drizzle/schema/shard-directory.ts), so a one-shard deployment is a one-database deployment.
 * New organizations go to NEW_ORGANIZATION_SHARD (default: the first shard).
 */
export const DIRECTORY_SHARD = "DB";

export interface ShardConfig {
  shards: string[];
  placement: string;
}

type ShardVars = Partial<Record<"SHARDS" | "NEW_ORGANIZATION_SHARD", string>>;

let parsed: { vars: string; config: ShardConfig } | undefined;

/**
 * Reads and checks the shard vars: a misconfiguration fails every request loudly instead of misrouting one. Parsed
 * once per isolate (every query of a request names its shard).
 */
export function shardConfig(vars: ShardVars): ShardConfig {
  const key = `${vars.SHARDS}\n${vars.NEW_ORGANIZATION_SHARD}`;
  if (parsed?.vars !== key) parsed = { vars: key, config: parseShardConfig(vars) };
  return parsed.config;
}

function parseShardConfig(vars: ShardVars): ShardConfig {
  const shards = (vars.SHARDS ?? DIRECTORY_SHARD)
    .split(",")
    .map((name) => name.trim())
    .filter(Boolean);
  if (shards[0] !== DIRECTORY_SHARD) throw new Error(`SHARDS must list ${DIRECTORY_SHARD} first, got "${vars.SHARDS}"`);
  if (new Set(shards).size !== shards.length) throw new Error(`SHARDS names a binding twice: "${vars.SHARDS}"`);
  const placement = vars.NEW_ORGANIZATION_SHARD?.trim() || DIRECTORY_SHARD;
  if (!shards.includes(placement)) throw new Error(`NEW_ORGANIZATION_SHARD "${placement}" is not one of SHARDS`);
  return { shards, placement };
}

const isD1 = (value: unknown): value is D1Database =>
  typeof value === "object" && value !== null && typeof (value as D1Database).prepare === "function";

/** The D1 binding of a shard named in SHARDS. */
export function shardBinding(env: Env, shard: string): D1Database {
  if (!shardConfig(env).shards.includes(shard)) throw new Error(`"${shard}" is not one of SHARDS`);
  const binding = (env as unknown as Record<string, unknown>)[shard];
  if (!isD1(binding)) throw new Error(`SHARDS names "${shard}", which is not a D1 binding of this Worker`);
  return binding;
}

/** The database holding the directory. */
export const directoryBinding = (env: Env): D1Database => env.DB;

/**
 * The shard the directory names for an organization (null: none), read on a session of DB at `anchor` (a request's
 * replica-eligible one, falling back to the primary when the replica has no entry) or straight from the binding.
 * One shard: no read.
 */
export async function shardOfOrganization(
  env: Env,
  organizationId: string,
  anchor?: D1SessionBookmark | D1SessionConstraint,
): Promise<string | null> {
  if (shardConfig(env).shards.length === 1) return DIRECTORY_SHARD;
  const directory = directoryBinding(env);
  const read = (from: D1Database | D1DatabaseSession) =>
    from
      .prepare(`SELECT "shard" FROM "organization_directory" WHERE "organization_id" = ?`)
      .bind(organizationId)
      .first<{ shard: string }>();
  const row = await read(anchor === undefined ? directory : directory.withSession(anchor));
  if (row || anchor === undefined || anchor === "first-primary") return row?.shard ?? null;
  // A replica may not have the entry of an organization created a moment ago (on another shard, so the creating
  // client holds no bookmark of DB): the primary has it.
  return (await read(directory.withSession("first-primary")))?.shard ?? null;
}
