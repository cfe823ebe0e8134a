/**
 * Organization shards: D1 bindings named in the SHARDS var (default "DB"). DB is always the first shard and also
 * holds the directory (drizzle/schema/shard-directory.ts), so a one-shard deployment is a one-database deployment.
 * A shard named `NAME@EU` is in the EU data region (its D1 database and its R2 bucket, FILES_EU, created with
 * wrangler's `jurisdiction = "eu"`); every other shard is in the DEFAULT region (R2 bucket FILES). New organizations
 * go to NEW_ORGANIZATION_SHARD (default: the first shard), which is a DEFAULT one; an organization created with
 * `dataRegion: "EU"` goes to the first EU shard.
 */
export const DIRECTORY_SHARD = "DB";

export const DATA_REGIONS = ["DEFAULT", "EU"] as const;
export type DataRegion = (typeof DATA_REGIONS)[number];

export interface ShardConfig {
  shards: string[];
  placement: string;
  /** Each shard's data region (DEFAULT unless SHARDS names it `NAME@EU`). */
  regions: Record<string, DataRegion>;
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
  const entries = (vars.SHARDS ?? DIRECTORY_SHARD)
    .split(",")
    .map((entry) => entry.trim())
    .filter(Boolean)
    .map((entry) => entry.split("@").map((part) => part.trim()));
  const regions: Record<string, DataRegion> = {};
  for (const [name, region = "DEFAULT"] of entries) {
    if (!DATA_REGIONS.includes(region as DataRegion)) throw new Error(`SHARDS names an unknown data region "${region}" for ${name}`);
    regions[name!] = region as DataRegion;
  }
  const shards = entries.map(([name]) => name!);
  if (shards[0] !== DIRECTORY_SHARD) throw new Error(`SHARDS must list ${DIRECTORY_SHARD} first, got "${vars.SHARDS}"`);
  if (new Set(shards).size !== shards.length) throw new Error(`SHARDS names a binding twice: "${vars.SHARDS}"`);
  const placement = vars.NEW_ORGANIZATION_SHARD?.trim() || DIRECTORY_SHARD;
  if (!shards.includes(placement)) throw new Error(`NEW_ORGANIZATION_SHARD "${placement}" is not one of SHARDS`);
  if (regions[placement] !== "DEFAULT") throw new Error(`NEW_ORGANIZATION_SHARD "${placement}" must be a DEFAULT-region shard`);
  if (regions[DIRECTORY_SHARD] !== "DEFAULT") throw new Error(`${DIRECTORY_SHARD} holds the directory: it is a DEFAULT-region shard`);
  return { shards, placement, regions };
}

/** The shard a new organization of `region` is placed on (null: no shard of that region is configured). */
export function placementOf(config: ShardConfig, region: DataRegion): string | null {
  if (region === "DEFAULT") return config.placement;
  return config.shards.find((shard) => config.regions[shard] === region) ?? null;
}

/** The data region of a shard named in SHARDS. */
export const regionOf = (env: ShardVars, shard: string): DataRegion => shardConfig(env).regions[shard] ?? "DEFAULT";

const REGION_BUCKETS: Record<DataRegion, "FILES" | "FILES_EU"> = { DEFAULT: "FILES", EU: "FILES_EU" };

/**
 * The R2 bucket of an organization's files (payroll snapshots, exports, kiosk photos): its shard's region's. Every
 * read and write of tenant objects goes through here, so an EU organization's objects never leave the EU bucket.
 */
export function filesOf(env: Env, shard: string): R2Bucket {
  const bucket = env[REGION_BUCKETS[regionOf(env, shard)]];
  if (!bucket) throw new Error(`The ${regionOf(env, shard)} region's R2 bucket is not bound to this Worker`);
  return bucket;
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
