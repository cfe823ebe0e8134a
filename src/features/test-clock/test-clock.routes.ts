import { authorize } from "@/auth/authorize";
import { jsonBody, jsonContent, OrganizationParams, problems } from "@/platform/openapi/helpers";
import { defineRoute } from "@/platform/routes/define-route";
import { TestClock, TestClockAdvance, TestClockAdvanced } from "./test-clock.schemas";

const tags = ["Organizations"];
const admin = authorize("ORGANIZATION_ADMIN");
const path = "/api/organizations/{organization_id}/test-clock";

export const getClock = defineRoute({
  method: "get",
  path,
  operationId: "getTestClock",
  flags: { scope: "organization" },
  tags,
  summary: "Read a sandbox's test clock",
  description:
    "Needs ORGANIZATION_ADMIN (an organization token of the sandbox). The sandbox's time: the real time plus how far its clock " +
    "was advanced. A live organization has no test clock: 409 `NOT_A_SANDBOX`.",
  middleware: [admin] as const,
  request: { params: OrganizationParams },
  responses: { 200: jsonContent(TestClock, "The sandbox's clock"), ...problems("NOT_A_SANDBOX") },
});

export const advance = defineRoute({
  method: "post",
  path: `${path}/advance`,
  operationId: "advanceTestClock",
  flags: { scope: "organization", idempotency: "middleware" },
  tags,
  summary: "Advance a sandbox's test clock",
  description:
    "Needs ORGANIZATION_ADMIN (an organization token of the sandbox). Moves the sandbox's time forward to `to` (never back: 422 " +
    "`TEST_CLOCK_BACKWARDS`; at most 90 days at a time, else 400) and records `test_clock.advanced`. Everything " +
    "time-driven then runs at the sandbox's time, for it alone: punches, and every record's `createdAt`/`updatedAt` " +
    "and decision stamps (a manual timesheet, a pay approval or reopen, an open-shift claim, a time-off policy…) are " +
    "stamped with it, a pay period has ended when its clock passed the period's end, and before answering " +
    "this request runs the time-driven passes of the Cron for this sandbox at `to` (no-shows, automatic clock-outs, " +
    "time-off accruals, export retries: an export whose row has not moved for 5 minutes of its clock is worked again) " +
    "and wakes its webhook endpoints, so retries whose backoff its clock has passed are sent (a delivery's " +
    "`nextAttemptAt` is at the sandbox's time). " +
    "The hourly Cron also runs a few sandboxes each time at their own time; live organizations never see a sandbox's " +
    "time. A live organization has no test clock: 409 `NOT_A_SANDBOX`.",
  middleware: [admin] as const,
  request: { params: OrganizationParams, body: jsonBody(TestClockAdvance) },
  responses: {
    200: jsonContent(TestClockAdvanced, "The sandbox's clock at its new time"),
    ...problems("NOT_A_SANDBOX", "TEST_CLOCK_BACKWARDS"),
  },
});

export type GetClockRoute = typeof getClock;
export type AdvanceRoute = typeof advance;
