import type { OpenAPIHono, RouteConfig, RouteHandler } from "@hono/zod-openapi";
import type { Context } from "hono";
import type { RequestIdVariables } from "hono/request-id";
import type { Database } from "@/data/client";
import type { IdempotentRequest } from "@/data/idempotency";
import type { RequestDatabases } from "@/data/sessions";
import type { Principal } from "@/domain/permissions";
import type { Scope } from "@/domain/scope";

export interface AppBindings {
  Bindings: Env;
  Variables: RequestIdVariables & {
    /** The request's database: its organization's shard (src/platform/middleware/database.ts), DB for partner-level requests. */
    db: Database;
    /** The shard (D1 binding name) `db` runs on, and every session of the request. */
    shard: string;
    databases: RequestDatabases;
    principal: Principal;
    /** Who acts on what, settled by `authorize` (every route but a partner's own directory routes). */
    scope: Scope;
    /** Set for routes that record their Idempotency-Key inside their own batches. */
    idempotency?: IdempotentRequest;
    /** The version a `Shiftline-Version` request header asked for, resolved (domain/api-versions). */
    requestedVersion?: string;
    /** The API version the request is served in: the header's, else the token's pinned one, else the latest. */
    apiVersion?: string;
    /** The acted-on organization's clock offset, read at most once per request (src/platform/http/clock.ts). */
    clockOffset?: number;
  };
}

export type AppOpenAPI = OpenAPIHono<AppBindings>;

export type AppRouteHandler<R extends RouteConfig> = RouteHandler<R, AppBindings>;

/** The context of any route of the app, whatever its path and input (the timesheets' scope variables included). */
// biome-ignore lint/suspicious/noExplicitAny: Hono's own idiom for "any path, any validated input"
export type AppContext<E extends AppBindings = AppBindings> = Context<E, any, any>;

/**
 * A header set on the response after the handler answered: on its own headers, where hono's `c.header` would first
 * copy the whole response (it cannot know the headers are mutable). A response whose headers are not (a static
 * asset's) gets hono's copy.
 */
export function setAnsweredHeader(c: Context, name: string, value: string) {
  try {
    c.res.headers.set(name, value);
  } catch {
    c.header(name, value);
  }
}
