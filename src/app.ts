import { authenticate } from "@/auth/authorize";
import { webhooksOfDocument } from "@/events/webhooks-document";
import accessRoles from "@/features/access-roles/access-roles.index";
import auth from "@/features/auth/auth.index";
import breakTypes from "@/features/break-types/break-types.index";
import events from "@/features/events/events.index";
import locations from "@/features/locations/locations.index";
import meta from "@/features/meta/meta.index";
import operator from "@/features/operator/operator.index";
import organizations from "@/features/organizations/organizations.index";
import roles from "@/features/roles/roles.index";
import openShifts from "@/features/scheduling/open-shifts.index";
import schedules from "@/features/scheduling/schedules.index";
import shiftNotes from "@/features/shift-notes/shift-notes.index";
import staffMembers from "@/features/staff-members/staff-members.index";
import policies from "@/features/time-off/policies.index";
import timeOffRequests from "@/features/time-off/time-off-requests.index";
import timeOffSettings from "@/features/time-off/time-off-settings.index";
import timeTracking from "@/features/time-tracking/time-tracking.index";
import timesheets from "@/features/timesheets/timesheets.index";
import webhooks from "@/features/webhooks/webhooks.index";
import { createApp } from "@/platform/create-app";
import type { AppOpenAPI } from "@/platform/http/env";
import { organizationDatabase } from "@/platform/middleware/database";
import { drainAfterWrites } from "@/platform/middleware/drain-outbox";
import { idempotency } from "@/platform/middleware/idempotency";
import { apiRateLimit } from "@/platform/middleware/rate-limit";
import { finalizeDocument } from "@/platform/openapi/finalize";
import { DOCUMENT_INTRODUCTION, TAGS } from "@/platform/openapi/helpers";

const DOCUMENT = {
  openapi: "3.1.0",
  info: {
    title: "Shiftline API",
    version: "1.0.0",
    description: DOCUMENT_INTRODUCTION,
    contact: { name: "Shiftline API support", url: "https://shiftline.dev/support", email: "api@shiftline.dev" },
    license: { name: "Proprietary", url: "https://shiftline.dev/terms" },
  },
  security: [{ bearerAuth: [] }],
  tags: [...TAGS],
};

/** Public routers first: everything mounted after `authenticate` needs a bearer token (operator: its own secret). */
const publicRouters = [meta, auth, operator];
const protectedRouters: AppOpenAPI[] = [
  organizations,
  locations,
  roles,
  accessRoles,
  breakTypes,
  staffMembers,
  timeTracking,
  shiftNotes,
  timesheets,
  policies,
  timeOffRequests,
  timeOffSettings,
  schedules,
  openShifts,
  events,
  webhooks,
];

export function buildApp() {
  const app = createApp();
  for (const router of publicRouters) app.route("/", router);
  app.openAPIRegistry.registerComponent("securitySchemes", "bearerAuth", {
    type: "http",
    scheme: "bearer",
    bearerFormat: "JWT",
    description: "An access token from `POST /api/auth/exchangeToken`.",
  });
  let document: ReturnType<typeof app.getOpenAPI31Document> | undefined;
  app.get("/api/openapi.json", (c) => {
    document ??= finalizeDocument(app.getOpenAPI31Document(DOCUMENT), webhooksOfDocument());
    const { openapi, info, ...rest } = document;
    // The origin answering is the server: generated clients and the docs page talk to whoever serves the document.
    return c.json({ openapi, info, servers: [{ url: new URL(c.req.url).origin, description: "This server" }], ...rest });
  });
  app.use("/api/*", authenticate, apiRateLimit, organizationDatabase, drainAfterWrites, idempotency);
  for (const router of protectedRouters) app.route("/", router);
  return app;
}

export const app = buildApp();
