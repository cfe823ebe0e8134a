import type { OpenAPIHono, RouteConfig, RouteHandler } from "@hono/zod-openapi";
import type { RequestIdVariables } from "hono/request-id";
import type { Principal } from "../domain/permissions";
import type { Database } from "./db";
import type { IdempotentRequest } from "./idempotency";

export interface AppBindings {
  Bindings: Env;
  Variables: RequestIdVariables & {
    db: Database;
    principal: Principal;
    /** Set for routes that record their Idempotency-Key inside their own batches. */
    idempotency?: IdempotentRequest;
  };
}

export type AppOpenAPI = OpenAPIHono<AppBindings>;

export type AppRouteHandler<R extends RouteConfig> = RouteHandler<R, AppBindings>;
