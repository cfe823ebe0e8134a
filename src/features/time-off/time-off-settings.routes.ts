import { authorize } from "@/auth/authorize";
import { jsonBody, jsonContent, OrganizationParams, problems } from "@/platform/openapi/helpers";
import { defineRoute } from "@/platform/routes/define-route";
import { TimeOffSettings, TimeOffSettingsPatch } from "./time-off-settings.schemas";

const tags = ["Time off"];
const path = "/api/organizations/{organization_id}/time-off-settings";

export const get = defineRoute({
  method: "get",
  path,
  operationId: "getTimeOffSettings",
  flags: { scope: "organization" },
  tags,
  summary: "Retrieve organization time off settings",
  description: "The stored settings, the defaults where none were changed.",
  middleware: [authorize("TIMEOFF_READ")] as const,
  request: { params: OrganizationParams },
  responses: { 200: jsonContent(TimeOffSettings, "The settings"), ...problems() },
});

export const patch = defineRoute({
  method: "patch",
  path,
  operationId: "updateTimeOffSettings",
  flags: { scope: "organization" },
  tags,
  summary: "Update organization time off settings",
  description: "Changes only the named settings; requests created or edited afterwards are checked against them.",
  middleware: [authorize("TIMEOFF_WRITE")] as const,
  request: { params: OrganizationParams, body: jsonBody(TimeOffSettingsPatch) },
  responses: { 200: jsonContent(TimeOffSettings, "The settings"), ...problems() },
});

export type GetRoute = typeof get;
export type PatchRoute = typeof patch;
