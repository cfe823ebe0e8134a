import { shardBinding, shardConfig } from "@/data/shards";
import type { AppRouteHandler } from "@/platform/http/env";
import type { HealthRoute } from "./meta.routes";

export const health: AppRouteHandler<HealthRoute> = async (c) => {
  try {
    await Promise.all(shardConfig(c.env).shards.map((shard) => shardBinding(c.env, shard).prepare("SELECT 1").first()));
    return c.json({ status: "ok" as const, database: "ok" as const }, 200);
  } catch {
    return c.json({ status: "degraded" as const, database: "unavailable" as const }, 503);
  }
};
