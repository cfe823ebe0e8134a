import { describe, expect, it } from "vitest";
import { placementOf, shardConfig } from "@/data/shards";

describe("shardConfig", () => {
  it("defaults to one shard, DB, holding every organization", () => {
    expect(shardConfig({})).toEqual({ shards: ["DB"], placement: "DB", regions: { DB: "DEFAULT" } });
  });

  it("reads the shards in order and the placement", () => {
    expect(shardConfig({ SHARDS: " DB, DB_SHARD_2 ", NEW_ORGANIZATION_SHARD: "DB_SHARD_2" })).toEqual({
      shards: ["DB", "DB_SHARD_2"],
      placement: "DB_SHARD_2",
      regions: { DB: "DEFAULT", DB_SHARD_2: "DEFAULT" },
    });
  });

  it("refuses a list without DB first, a binding named twice, or a placement outside the list", () => {
    expect(() => shardConfig({ SHARDS: "DB_SHARD_2,DB" })).toThrow(/DB first/);
    expect(() => shardConfig({ SHARDS: "DB,DB_SHARD_2,DB_SHARD_2" })).toThrow(/twice/);
    expect(() => shardConfig({ SHARDS: "DB", NEW_ORGANIZATION_SHARD: "DB_SHARD_2" })).toThrow(/not one of SHARDS/);
  });

  it("reads a shard's data region from NAME@REGION, places EU organizations on the first EU shard", () => {
    const config = shardConfig({ SHARDS: "DB,DB_SHARD_2, DB_SHARD_EU@EU ,DB_SHARD_EU2@EU", NEW_ORGANIZATION_SHARD: "DB_SHARD_2" });
    expect(config.shards).toEqual(["DB", "DB_SHARD_2", "DB_SHARD_EU", "DB_SHARD_EU2"]);
    expect(config.regions).toEqual({ DB: "DEFAULT", DB_SHARD_2: "DEFAULT", DB_SHARD_EU: "EU", DB_SHARD_EU2: "EU" });
    expect(placementOf(config, "EU")).toBe("DB_SHARD_EU");
    expect(placementOf(config, "DEFAULT")).toBe("DB_SHARD_2");
    expect(placementOf(shardConfig({ SHARDS: "DB" }), "EU")).toBeNull();
  });

  it("refuses an unknown region, an EU placement for DEFAULT organizations, or DB outside DEFAULT", () => {
    expect(() => shardConfig({ SHARDS: "DB,DB_SHARD_2@US" })).toThrow(/unknown data region/);
    expect(() => shardConfig({ SHARDS: "DB,DB_SHARD_EU@EU", NEW_ORGANIZATION_SHARD: "DB_SHARD_EU" })).toThrow(/DEFAULT-region/);
    expect(() => shardConfig({ SHARDS: "DB@EU" })).toThrow(/DEFAULT-region/);
  });
});
