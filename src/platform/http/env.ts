import type { OpenAPIHono, RouteConfig, RouteHandler } from "@hono/zod-openapi";
import type { RequestIdVariables } from "hono/request-id";
import type { Principal } from "@/domain/permissions";
import type { RequestDatabases } from "@/data/sessions";
import type { Database } from "@/data/client";
import type { IdempotentRequest } from "@/data/idempotency";

export interface AppBindings {
  Bindings: Env;
  Variables: RequestIdVariables & {
    /** The request's database: its organization's shard (src/platform/middleware/database.ts), DB for partner-level requests. */
    db: Database;
    /** The shard (D1 binding name) `db` runs on, and every session of the request. */
    shard: string;
    databases: RequestDatabases;
    principal: Principal;
    /** Set for routes that record their Idempotency-Key inside their own batches. */
    idempotency?: IdempotentRequest;
  };
}

export type AppOpenAPI = OpenAPIHono<AppBindings>;

export type AppRouteHandler<R extends RouteConfig> = RouteHandler<R, AppBindings>;
