import type { OpenAPIHono, RouteConfig, RouteHandler } from "@hono/zod-openapi";
import type { RequestIdVariables } from "hono/request-id";
import type { Principal } from "../domain/permissions";
import type { RequestDatabases } from "../middleware/db";
import type { Database } from "./db";
import type { IdempotentRequest } from "./idempotency";

export interface AppBindings {
  Bindings: Env;
  Variables: RequestIdVariables & {
    /** The request's database: its organization's shard (src/middleware/db.ts), DB for partner-level requests. */
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
