import { z } from "@hono/zod-openapi";
import { exchangeRateLimit } from "@/platform/middleware/rate-limit";
import { jsonBody, jsonContent, publicProblems } from "@/platform/openapi/helpers";
import { defineRoute } from "@/platform/routes/define-route";

export const ExchangeTokenRequest = z
  .object({
    token: z
      .string()
      .min(1)
      .max(8192)
      .openapi({
        description:
          "A JWT signed by the partner's key (ES256 or RS256). Claims: `iss` (partner id), `exp`, `jti` (a fresh " +
          "unique id, 1 to 255 characters, e.g. a random UUID: the token is exchanged once), optional `iat`, " +
          "optional `organizationId`, and optionally `employeeId` (a staff member id) or `externalEmployeeId` (the " +
          "partner's own id for the staff member).",
        example: "eyJhbGciOiJFUzI1NiJ9.eyJpc3MiOiJkZXYtcGFydG5lciJ9.c2ln",
      }),
  })
  .openapi("ExchangeTokenRequest");

export const ExchangeTokenResponse = z
  .object({
    accessToken: z.string().openapi({ example: "eyJhbGciOiJIUzI1NiJ9.e30.c2ln" }),
    tokenType: z.literal("Bearer"),
    expiresIn: z.number().int().openapi({ description: "Seconds until the access token expires.", example: 3600 }),
  })
  .openapi("ExchangeTokenResponse");

export const exchangeToken = defineRoute({
  method: "post",
  path: "/api/auth/exchangeToken",
  operationId: "exchangeToken",
  flags: { scope: "public" },
  tags: ["Authentication"],
  summary: "Exchange Token",
  description:
    "Trades a partner-signed JWT for a Shiftline access token valid for at most one hour. Each partner token is " +
    "exchanged once within its lifetime: it must carry a `jti` (else 401 `TOKEN_CLAIM_MISSING`), and a second " +
    "exchange of the same partner and `jti` before the token expires is 401 `TOKEN_REPLAYED` (of two at once, one " +
    "succeeds), so a token intercepted or logged cannot be replayed. Sign a new token, with a new `jti`, for each " +
    "exchange; a refused exchange (unknown organization or employee) does not spend it. Without " +
    "`organizationId` the token acts at partner level (list and create the partner's organizations); with it " +
    "and no employee it acts as an organization admin; with an employee it carries that staff member's " +
    "access-role permissions. Reads trust the token until it expires, without reading the database. Writes do " +
    "not: every write checks, in its own transaction, that the organization is live and, for a staff member's " +
    "token, that the member is still active and holds the same access role with the same permissions; otherwise " +
    "it writes nothing and answers 401 `TOKEN_REVOKED` (exchange a new token). So a demoted or deactivated staff " +
    "member, or a deleted organization, can still read for the rest of the token's hour but no longer write. " +
    "Partner-level tokens are not checked this way: a partner is configuration, not a record. " +
    "Scopes: a partner token may carry `scopes` (an array, or one space-separated string) narrower than its role: " +
    "`<area>:read`, `<area>:write` (which includes the area's reads), `*:read` or `*:write`; the access token keeps " +
    "them, and an operation whose scope (its `x-required-scope`) they do not grant answers 403 `INSUFFICIENT_SCOPE` " +
    "naming it. Without `scopes` only the role limits the token. The areas: organizations (and custom fields), " +
    "locations (and break types), staff (staff members, roles, access roles), time_tracking (punches, shift notes, " +
    "kiosks, photos), timesheets, pay (pay, wage rates, cost codes), time_off, availability, attendance, schedules " +
    "(schedules, shift requests, open shifts, demand, Fair Workweek), events (the feed and webhooks), exports, " +
    "audit_log; GET reads, every other method writes. An unknown scope is 401 `TOKEN_CLAIM_INVALID`.",
  security: [],
  middleware: exchangeRateLimit,
  request: { body: jsonBody(ExchangeTokenRequest) },
  responses: {
    200: jsonContent(ExchangeTokenResponse, "An access token"),
    ...publicProblems(401, 413, 415, 429),
  },
});
export type ExchangeTokenRoute = typeof exchangeToken;
