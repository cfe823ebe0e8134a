import { describe, expect, it } from "vitest";
import { directoryCacheMs, routedShard } from "@/data/shard-routes";

/** A directory read that counts its calls and answers what `entry` holds at the time. */
function directory(initial: string | null) {
  const state = { entry: initial, reads: 0 };
  return Object.assign(state, {
    read: async () => {
      state.reads++;
      return state.entry;
    },
  });
}

const kept = { DIRECTORY_CACHE_SECONDS: "5" };
const at = 1_000_000;

describe("routedShard", () => {
  it("keeps an organization's shard for DIRECTORY_CACHE_SECONDS, then reads the directory again", async () => {
    const dir = directory("DB_SHARD_2");
    const org = crypto.randomUUID();
    expect(await routedShard(kept, org, dir.read, { now: at })).toBe("DB_SHARD_2");
    dir.entry = "DB"; // a move's flip
    expect(await routedShard(kept, org, dir.read, { now: at + 4_999 })).toBe("DB_SHARD_2");
    expect(dir.reads).toBe(1);
    expect(await routedShard(kept, org, dir.read, { now: at + 5_000 })).toBe("DB");
    expect(dir.reads).toBe(2);
  });

  it("reads again when the client's bookmark names another shard: it wrote there since", async () => {
    const dir = directory("DB_SHARD_2");
    const org = crypto.randomUUID();
    await routedShard(kept, org, dir.read, { now: at });
    dir.entry = "DB";
    expect(await routedShard(kept, org, dir.read, { now: at + 1, bookmarkShard: "DB_SHARD_2" })).toBe("DB_SHARD_2");
    expect(dir.reads).toBe(1);
    expect(await routedShard(kept, org, dir.read, { now: at + 2, bookmarkShard: "DB" })).toBe("DB");
    expect(dir.reads).toBe(2);
    // What that read found is kept in turn.
    expect(await routedShard(kept, org, dir.read, { now: at + 3 })).toBe("DB");
    expect(dir.reads).toBe(2);
  });

  it("keeps no organization the directory lacks, and nothing when the lifetime is 0 or unset", async () => {
    const missing = directory(null);
    const org = crypto.randomUUID();
    expect(await routedShard(kept, org, missing.read, { now: at })).toBeNull();
    missing.entry = "DB_SHARD_2"; // created a moment later
    expect(await routedShard(kept, org, missing.read, { now: at + 1 })).toBe("DB_SHARD_2");
    for (const vars of [{ DIRECTORY_CACHE_SECONDS: "0" }, {}, { DIRECTORY_CACHE_SECONDS: "soon" }]) {
      const dir = directory("DB");
      await routedShard(vars, org, dir.read, { now: at });
      await routedShard(vars, org, dir.read, { now: at });
      expect(dir.reads).toBe(2);
    }
    expect(directoryCacheMs(kept)).toBe(5_000);
  });
});
