import { createRouter } from "@/platform/create-app";
import * as laborCost from "./labor-cost.handlers";
import * as laborCostRoutes from "./labor-cost.routes";
import * as waivers from "./meal-waivers.handlers";
import * as waiversRoutes from "./meal-waivers.routes";
import { MealWaiverEvent } from "./meal-waivers.schemas";
import * as lines from "./pay-lines.handlers";
import * as linesRoutes from "./pay-lines.routes";
import * as periods from "./pay-periods.handlers";
import * as periodsRoutes from "./pay-periods.routes";
import { TimesheetApproval } from "./pay-periods.schemas";
import * as rules from "./pay-rules.handlers";
import * as rulesRoutes from "./pay-rules.routes";
import * as payrollSettings from "./payroll-settings.handlers";
import * as payrollSettingsRoutes from "./payroll-settings.routes";
import * as qualified from "./qualified-overtime.handlers";
import * as qualifiedRoutes from "./qualified-overtime.routes";

const router = createRouter()
  .openapi(linesRoutes.payLines, lines.payLines)
  .openapi(laborCostRoutes.laborCost, laborCost.laborCost)
  .openapi(rulesRoutes.list, rules.list)
  .openapi(rulesRoutes.create, rules.create)
  .openapi(rulesRoutes.get, rules.get)
  .openapi(rulesRoutes.patch, rules.patch)
  .openapi(rulesRoutes.remove, rules.remove)
  .openapi(periodsRoutes.getSettings, periods.getSettings)
  .openapi(periodsRoutes.patchSettings, periods.patchSettings)
  .openapi(periodsRoutes.list, periods.list)
  .openapi(periodsRoutes.get, periods.get)
  .openapi(periodsRoutes.approveTimesheets, periods.approveTimesheets)
  .openapi(periodsRoutes.withdrawApproval, periods.withdrawApproval)
  .openapi(periodsRoutes.close, periods.close)
  .openapi(periodsRoutes.reopen, periods.reopen)
  .openapi(periodsRoutes.payroll, periods.payroll)
  .openapi(waiversRoutes.getMealWaivers, waivers.getMealWaivers)
  .openapi(waiversRoutes.putMealWaiver, waivers.putMealWaiver)
  .openapi(qualifiedRoutes.qualifiedOvertime, qualified.qualifiedOvertime)
  .openapi(payrollSettingsRoutes.getPayrollSettings, payrollSettings.getPayrollSettings)
  .openapi(payrollSettingsRoutes.putPayrollSettings, payrollSettings.putPayrollSettings);

// Only the events carry it (timesheet.approved and .unapproved): registered so the webhooks document can name it.
router.openAPIRegistry.register("TimesheetApproval", TimesheetApproval);
router.openAPIRegistry.register("MealWaiverEvent", MealWaiverEvent);

export default router;
