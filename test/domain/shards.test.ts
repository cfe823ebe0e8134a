import { describe, expect, it } from "vitest";
import { shardConfig } from "@/data/shards";

describe("shardConfig", () => {
  it("defaults to one shard, DB, holding every organization", () => {
    expect(shardConfig({})).toEqual({ shards: ["DB"], placement: "DB" });
  });

  it("reads the shards in order and the placement", () => {
    expect(shardConfig({ SHARDS: " DB, DB_SHARD_2 ", NEW_ORGANIZATION_SHARD: "DB_SHARD_2" })).toEqual({
      shards: ["DB", "DB_SHARD_2"],
      placement: "DB_SHARD_2",
    });
  });

  it("refuses a list without DB first, a binding named twice, or a placement outside the list", () => {
    expect(() => shardConfig({ SHARDS: "DB_SHARD_2,DB" })).toThrow(/DB first/);
    expect(() => shardConfig({ SHARDS: "DB,DB_SHARD_2,DB_SHARD_2" })).toThrow(/twice/);
    expect(() => shardConfig({ SHARDS: "DB", NEW_ORGANIZATION_SHARD: "DB_SHARD_2" })).toThrow(/not one of SHARDS/);
  });
});
