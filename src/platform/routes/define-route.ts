import { createRoute, type RouteConfig } from "@hono/zod-openapi";
import type { Context } from "hono";
import { matchedRoutes } from "hono/route";
import { requiredScope } from "@/domain/token-scopes";

/**
 * What the platform needs to know of a route, declared on it (never inferred from its method, its path or the
 * identity of a middleware function). The middleware reads it per request (`flagsOf`), the OpenAPI finalizer from
 * the document (the operation's `x-shiftline`, removed from the served document).
 */
export interface RouteFlags {
  /**
   * Who may call it: nobody in particular (no token), a partner, the organization its path names, the caller's own,
   * or (`device`) a kiosk's device token, which no other operation accepts.
   */
  scope: "public" | "partner" | "organization" | "caller" | "device";
  /**
   * Takes an Idempotency-Key: the idempotency middleware claims and replays it, or (`in-batches`) the handler looks
   * it up and records it inside its own read and write batches, so a key costs no extra D1 round trip.
   */
  idempotency?: "middleware" | "in-batches";
  /** A punch: the punches' own rate-limit bucket, and its reads start at a replica (its write batch re-checks all). */
  punch?: boolean;
  /** A paged list: answers a `Link` header to its next page (its query has `cursor`, or `after` for the event feed). */
  list?: boolean;
}

/** The key of the document's operations that carries the flags to the finalizer. */
export const FLAGS_EXTENSION = "x-shiftline";

const byRoute = new Map<string, RouteFlags>();
/** The token scope each route needs (domain/token-scopes: from its first tag and its method), null for none. */
const scopeByRoute = new Map<string, string | null>();
const operationByRoute = new Map<string, string | null>();
const routeKey = (method: string, honoPath: string) => `${method.toUpperCase()} ${honoPath}`;

/** `createRoute` with the route's flags. */
export function defineRoute<P extends string, R extends Omit<RouteConfig, "path"> & { path: P }>({
  flags,
  ...config
}: R & { flags: RouteFlags }) {
  const route = createRoute({ ...config, [FLAGS_EXTENSION]: flags } as unknown as R);
  const key = routeKey(route.method, route.getRoutingPath());
  byRoute.set(key, flags);
  scopeByRoute.set(key, requiredScope(config.tags?.[0], route.method));
  operationByRoute.set(key, config.operationId ?? null);
  return route;
}

const NONE: RouteFlags = { scope: "public" };

/** Each request's flags, found once: the database, rate-limit and idempotency middleware each ask (issue 36). */
const flagsOfRequest = new WeakMap<Context, RouteFlags>();

/** The flags of the route a request matched (none for a path no route serves). */
export function flagsOf(c: Context): RouteFlags {
  let flags = flagsOfRequest.get(c);
  if (flags === undefined) {
    flags = matchedFlags(c);
    flagsOfRequest.set(c, flags);
  }
  return flags;
}

function matchedKey(c: Context): string | undefined {
  const routes = matchedRoutes(c);
  for (let i = routes.length - 1; i >= 0; i--) {
    const route = routes[i]!;
    if (route.method === "ALL") continue;
    const key = routeKey(route.method, route.path);
    if (byRoute.has(key)) return key;
  }
  return undefined;
}

function matchedFlags(c: Context): RouteFlags {
  const key = matchedKey(c);
  return (key && byRoute.get(key)) || NONE;
}

/** The operationId of the route a request matched (null: none matched). */
export function operationIdOf(c: Context): string | null {
  const key = matchedKey(c);
  return key === undefined ? null : (operationByRoute.get(key) ?? null);
}

/** The token scope the matched route needs (null: none, or no route matched). */
export function requiredScopeOf(c: Context): string | null {
  const key = matchedKey(c);
  return key === undefined ? null : (scopeByRoute.get(key) ?? null);
}

/** An operation of the generated document, as far as its flags are checked. */
type Operation = { [FLAGS_EXTENSION]?: RouteFlags; parameters?: { in?: string; name?: string }[] };

/**
 * The flags the route declared (defineRoute), taken out of the served operation. A declaration the operation
 * contradicts fails the build of the document, so the flags and the routes cannot drift apart.
 */
export function takeDeclaredFlags(method: string, path: string, operation: Operation): RouteFlags {
  const flags = operation[FLAGS_EXTENSION];
  delete operation[FLAGS_EXTENSION];
  const where = `${method.toUpperCase()} ${path}`;
  if (!flags) throw new Error(`${where} is not defined with defineRoute`);
  const paged = (operation.parameters ?? []).some((p) => p.in === "query" && (p.name === "cursor" || p.name === "after"));
  if (paged !== (flags.list === true))
    throw new Error(`${where}: flagged list: ${flags.list === true}, but ${paged ? "takes" : "lacks"} a cursor`);
  const organizationInPath = /\{organization_?[iI]d\}/.test(path);
  if (organizationInPath !== (flags.scope === "organization")) throw new Error(`${where}: scope ${flags.scope} does not fit its path`);
  if (flags.idempotency && method !== "post") throw new Error(`${where}: only a POST takes an Idempotency-Key`);
  return flags;
}
