import type { AppRouteHandler } from "@/platform/http/env";
import { payrollSettingsWire, putPayrollSettings as put, readPayrollSettings } from "./payroll-settings.data";
import type { GetPayrollSettingsRoute, PutPayrollSettingsRoute } from "./payroll-settings.routes";

export const getPayrollSettings: AppRouteHandler<GetPayrollSettingsRoute> = async (c) =>
  c.json(payrollSettingsWire(await readPayrollSettings(c.var.db, c.req.valid("param").organization_id)), 200);

export const putPayrollSettings: AppRouteHandler<PutPayrollSettingsRoute> = async (c) =>
  c.json(await put(c.var, c.req.valid("param").organization_id, c.req.valid("json")), 200);
