import { createApp } from "./lib/create-app";
import { TAGS } from "./lib/openapi";
import { authenticate } from "./middleware/auth";
import { idempotency } from "./middleware/idempotency";
import type { AppOpenAPI } from "./lib/types";
import auth from "./routes/auth/auth.index";
import breakTypes from "./routes/break-types/break-types.index";
import locations from "./routes/locations/locations.index";
import meta from "./routes/meta/meta.index";
import accessRoles from "./routes/access-roles/access-roles.index";
import organizations from "./routes/organizations/organizations.index";
import roles from "./routes/roles/roles.index";
import shiftNotes from "./routes/shift-notes/shift-notes.index";
import timeTracking from "./routes/time-tracking/time-tracking.index";
import timesheets from "./routes/timesheets/timesheets.index";
import staffMembers from "./routes/staff-members/staff-members.index";
import schedules from "./routes/schedules/schedules.index";
import openShifts from "./routes/open-shifts/open-shifts.index";

/** Public routers first: everything mounted after `authenticate` needs a bearer token. */
const publicRouters = [meta, auth];
const protectedRouters: AppOpenAPI[] = [organizations, locations, roles, accessRoles, breakTypes, staffMembers, timeTracking, shiftNotes, timesheets, schedules, openShifts];

export function buildApp() {
  const app = createApp();
  for (const router of publicRouters) app.route("/", router);
  app.openAPIRegistry.registerComponent("securitySchemes", "bearerAuth", {
    type: "http",
    scheme: "bearer",
    bearerFormat: "JWT",
    description: "An access token from `POST /api/auth/exchangeToken`.",
  });
  app.doc31("/api/openapi.json", {
    openapi: "3.1.0",
    info: {
      title: "Shiftline API",
      version: "1.0.0",
      description:
        "Workforce time tracking and scheduling at the edge. Errors are RFC 9457 problem documents; lists are bare " +
        "arrays paged with `limit`/`cursor` and a `Link: rel=\"next\"` header.",
      license: { name: "Proprietary", url: "https://shiftline.dev/terms" },
    },
    servers: [{ url: "http://127.0.0.1:8787", description: "Local development (npm start)" }],
    security: [{ bearerAuth: [] }],
    tags: [...TAGS],
  });
  app.use("/api/*", authenticate, idempotency);
  for (const router of protectedRouters) app.route("/", router);
  return app;
}

export const app = buildApp();
