import { MIN_PART_BYTES } from "@/data/files";
import { filesOf } from "@/data/shards";
import { requestNow } from "@/platform/http/clock";
import type { AppRouteHandler } from "@/platform/http/env";
import { asyncTextStream } from "@/platform/http/json-stream";
import { serializeJob } from "@/wire/job.schemas";
import { checkClose } from "./pay-close-check.data";
import { assembleBytesOf, closeInRequestMax, faultOf, pagesPerStepOf, startCloseJob } from "./pay-close-job.data";
import { closesInRequest } from "./pay-close-start.data";
import { approveTimesheets as approve, withdrawApproval as withdraw } from "./pay-period-approvals.data";
import {
  closeOptionsOf,
  closePeriod,
  DEFAULT_CLOSE_PAGE,
  providerPayroll,
  payroll as readPayroll,
  reopenPeriod,
} from "./pay-period-close.data";
import { readSettings, settingsWire, patchSettings as writeSettings } from "./pay-period-settings.data";
import { listPeriods, periodDetail, readPeriodState } from "./pay-periods.data";
import type * as routes from "./pay-periods.routes";

export const getSettings: AppRouteHandler<routes.GetSettingsRoute> = async (c) =>
  c.json(settingsWire(await readSettings(c.var.db, c.req.valid("param").organization_id)), 200);

export const patchSettings: AppRouteHandler<routes.PatchSettingsRoute> = async (c) =>
  c.json(await writeSettings(c.var, c.req.valid("param").organization_id, c.req.valid("json")), 200);

export const list: AppRouteHandler<routes.ListRoute> = async (c) => {
  const { startDate, endDate } = c.req.valid("query");
  return c.json(await listPeriods(c.var.db, c.req.valid("param").organization_id, startDate, endDate), 200);
};

export const get: AppRouteHandler<routes.GetRoute> = async (c) => {
  const { organization_id, periodId } = c.req.valid("param");
  return c.json(periodDetail(await readPeriodState(c.var.db, organization_id, periodId)), 200);
};

export const approveTimesheets: AppRouteHandler<routes.ApproveRoute> = async (c) => {
  const { organization_id, periodId } = c.req.valid("param");
  return c.json(await approve(c.var, organization_id, periodId, c.req.valid("json").employeeIds), 200);
};

export const withdrawApproval: AppRouteHandler<routes.WithdrawRoute> = async (c) => {
  const { organization_id, periodId, employeeId } = c.req.valid("param");
  return c.json(await withdraw(c.var, organization_id, periodId, employeeId), 200);
};

export const close: AppRouteHandler<routes.CloseRoute> = async (c) => {
  const { organization_id, periodId } = c.req.valid("param");
  const { approveAll } = c.req.valid("json");
  const now = await requestNow(c);
  const options = { ...closeOptionsOf(c.env), now };
  // Job or not from a count that stops past the limit; the refusals (either way) without reading the whole period.
  const inRequest = await closesInRequest(c.var.db, organization_id, periodId, closeInRequestMax(c.env));
  // A job's 202 checks the refusals only: its plan step reads the period whole.
  const check = await checkClose(c.var, organization_id, periodId, approveAll, now, inRequest ? "full" : "refusals");
  if (inRequest) {
    return c.json(await closePeriod(c.var, filesOf(c.env, c.var.shard), organization_id, periodId, approveAll, options, check), 200);
  }
  const job = await startCloseJob(c.var, c.env.PAY_CLOSE_WORKFLOW, {
    organizationId: organization_id,
    periodId,
    approveAll,
    pageEmployees: options.pageEmployees ?? DEFAULT_CLOSE_PAGE,
    pagesPerStep: pagesPerStepOf(c.env),
    partBytes: options.partBytes ?? MIN_PART_BYTES,
    assembleBytes: assembleBytesOf(c.env),
    fault: faultOf(c.env),
  });
  return c.json(serializeJob(job), 202, { Location: `/api/organizations/${organization_id}/jobs/${job.id}` });
};

export const reopen: AppRouteHandler<routes.ReopenRoute> = async (c) => {
  const { organization_id, periodId } = c.req.valid("param");
  return c.json(await reopenPeriod(c.var, organization_id, periodId, c.req.valid("json").reason), 200);
};

export const payroll: AppRouteHandler<routes.PayrollRoute> = async (c) => {
  const { organization_id, periodId } = c.req.valid("param");
  const { format } = c.req.valid("query");
  if (format !== "json" && format !== "csv") {
    const file = await providerPayroll(c.var.db, filesOf(c.env, c.var.shard), organization_id, periodId, format);
    return c.body(asyncTextStream(file.pieces), 200, {
      "Content-Type": file.contentType,
      "Content-Disposition": `attachment; filename="${file.filename}"`,
    });
  }
  const answer = await readPayroll(c.var.db, filesOf(c.env, c.var.shard), organization_id, periodId, format);
  if (answer.json !== undefined) {
    return c.body(answer.json, 200, {
      "Content-Type": "application/json; charset=utf-8",
      ...(answer.size !== null && { "Content-Length": String(answer.size) }),
    });
  }
  return c.body(answer.csv, 200, {
    "Content-Type": "text/csv; charset=utf-8; header=present",
    "Content-Disposition": `attachment; filename="${answer.filename}"`,
  });
};
