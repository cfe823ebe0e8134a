import { z } from "@hono/zod-openapi";
import { jsonContent } from "@/platform/openapi/helpers";
import { defineRoute } from "@/platform/routes/define-route";

export const Health = z
  .object({
    status: z.enum(["ok", "degraded"]).openapi({ example: "ok" }),
    database: z.enum(["ok", "unavailable"]).openapi({ example: "ok" }),
  })
  .openapi("Health");

export const health = defineRoute({
  method: "get",
  path: "/api/health",
  operationId: "getHealth",
  flags: { scope: "public" },
  tags: ["Meta"],
  summary: "Health check",
  description:
    "Answers 200 with `status: ok` when every database (each organization shard) answers, 503 with `status: degraded` when one does not.",
  security: [],
  responses: {
    200: jsonContent(Health, "The service and its database answer"),
    503: jsonContent(Health, "The database does not answer"),
  },
});
export type HealthRoute = typeof health;
