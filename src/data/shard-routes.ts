/**
 * Organization → shard, as this isolate last read it from the directory, for DIRECTORY_CACHE_SECONDS (unset or 0:
 * every request reads the directory). The directory read is a D1 round trip of its own before a request's first
 * query, ≈ 1 ms of CPU here and a network hop in production (docs/PERFORMANCE.md, issue 21); an organization moves
 * rarely. What a stale entry can do after a move's flip is what a request routed just before the flip (or through a
 * replica behind it) already does: read the source's frozen rows, which the move keeps for its settle time plus this
 * lifetime (src/shards), or write there, which the source's freeze refuses (503 ORGANIZATION_MOVING, retried after the
 * lifetime is over). A client that sent a bookmark of another shard than the entry names wrote there since: the
 * directory is read again, so it reads its own writes.
 */
export const directoryCacheMs = (vars: { DIRECTORY_CACHE_SECONDS?: string }): number => {
  const seconds = Number(vars.DIRECTORY_CACHE_SECONDS ?? 0);
  return Number.isFinite(seconds) && seconds > 0 ? seconds * 1000 : 0;
};

/** Entries kept at most: the oldest go first past it. */
const CAPACITY = 10_000;
const routes = new Map<string, { shard: string; until: number }>();

/**
 * The organization's shard: the entry this isolate keeps while it holds (and agrees with the bookmark's shard, when
 * one was sent), else `read()`'s answer, kept for the lifetime. An organization the directory lacks is not kept.
 */
export async function routedShard(
  vars: { DIRECTORY_CACHE_SECONDS?: string },
  organizationId: string,
  read: () => Promise<string | null>,
  { bookmarkShard, now = Date.now() }: { bookmarkShard?: string; now?: number } = {},
): Promise<string | null> {
  const lifetime = directoryCacheMs(vars);
  if (lifetime === 0) return read();
  const known = routes.get(organizationId);
  if (known && now < known.until && (bookmarkShard === undefined || bookmarkShard === known.shard)) return known.shard;
  const shard = await read();
  routes.delete(organizationId);
  if (shard !== null) {
    if (routes.size >= CAPACITY) routes.delete(routes.keys().next().value!);
    routes.set(organizationId, { shard, until: now + lifetime });
  }
  return shard;
}
