import { shiftedNow } from "@/data/clock";
import { MAX_ADVANCE_DAYS } from "@/domain/test-clock";
import { runSandboxPasses, SANDBOX_ATTENDANCE_STATEMENTS } from "@/jobs/sandbox-passes";
import type { AppContext, AppRouteHandler } from "@/platform/http/env";
import { conflict, invalidField, notFound, ProblemError } from "@/problems/problem";
import { advanceClock, testClockOf } from "./test-clock.data";
import type * as routes from "./test-clock.routes";

const DAY_MS = 86_400_000;

/** The sandbox's clock offset, or 404 (no such organization) / 409 NOT_A_SANDBOX. */
async function sandboxOffset(c: AppContext, organizationId: string) {
  const clock = await testClockOf(c.var.db, organizationId);
  if (!clock) throw notFound("Organization");
  if (!clock.sandbox) throw conflict("NOT_A_SANDBOX", "Only a sandbox organization (POST /organizations/sandbox) has a test clock.");
  return clock.offset;
}

const answer = (organizationId: string, offset: number, now: Date) => ({
  organizationId,
  now: now.toISOString(),
  advancedBySeconds: Math.round(offset / 1000),
});

export const getClock: AppRouteHandler<routes.GetClockRoute> = async (c) => {
  const { organization_id } = c.req.valid("param");
  const offset = await sandboxOffset(c, organization_id);
  return c.json(answer(organization_id, offset, shiftedNow(offset)), 200);
};

export const advance: AppRouteHandler<routes.AdvanceRoute> = async (c) => {
  const { organization_id } = c.req.valid("param");
  const to = new Date(c.req.valid("json").to);
  const offset = await sandboxOffset(c, organization_id);
  const realNow = Date.now();
  const from = shiftedNow(offset, realNow);
  if (to < from)
    throw new ProblemError(422, "TEST_CLOCK_BACKWARDS", `The sandbox's time is ${from.toISOString()}: its clock never goes back.`);
  if (to.getTime() - from.getTime() > MAX_ADVANCE_DAYS * DAY_MS) {
    throw invalidField("to", `at most ${MAX_ADVANCE_DAYS} days after the sandbox's time now (${from.toISOString()})`);
  }
  const newOffset = to.getTime() - realNow;
  const writer = { db: c.var.db, principal: c.var.principal, organizationId: organization_id };
  // Another advance got further meanwhile: this one is behind the sandbox's time now.
  if (!(await advanceClock(writer, organization_id, newOffset, from, to))) {
    throw new ProblemError(422, "TEST_CLOCK_BACKWARDS", "The sandbox's clock was advanced past `to` meanwhile.");
  }
  const ran = await runSandboxPasses(
    c.var.db,
    { webhooks: c.env.WEBHOOK_QUEUE, exports: c.env.EXPORT_QUEUE },
    organization_id,
    to,
    SANDBOX_ATTENDANCE_STATEMENTS * 5,
  );
  return c.json({ ...answer(organization_id, newOffset, to), ran }, 200);
};
