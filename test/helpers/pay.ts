import { api } from "./api";
import type { OrganizationFixture } from "./fixtures";
import { createManual } from "./timesheets";
import type { Workplace } from "./workplace";

export const rulesPath = (org: OrganizationFixture) => `/api/organizations/${org.id}/pay-rules`;
export const periodsPath = (org: OrganizationFixture) => `/api/organizations/${org.id}/pay-periods`;

export async function createRuleSet(org: OrganizationFixture, body: Record<string, unknown>) {
  const res = await api("POST", rulesPath(org), { token: org.adminToken, body: { name: "Rules", effectiveFrom: "2026-01-01", ...body } });
  if (res.status !== 201) throw new Error(`pay rule set: ${res.status} ${res.text}`);
  return res.body;
}

export const payLines = (w: Workplace, query: Record<string, string>, token = w.org.adminToken) =>
  api("GET", `/api/timesheets/pay?${new URLSearchParams(query)}`, { token });

/** 2026-06-01 is a Monday: the weekly pay period (and FLSA/CA workweek) 2026-06-01 … 2026-06-07. */
export const WEEK = ["2026-06-01", "2026-06-02", "2026-06-03", "2026-06-04", "2026-06-05", "2026-06-06", "2026-06-07"] as const;
export const PERIOD = WEEK[0];

/** A closed manual shift of the workplace's staff member: `hours` from 08:00 local on `date`, at $20/h. */
export const workDay = (w: Workplace, date: string, hours: number, body: Record<string, unknown> = {}) => {
  const end = new Date(Date.parse(`${date}T08:00:00Z`) + hours * 3_600_000).toISOString().replace(".000Z", "Z");
  return createManual(w, { startTime: `${date}T08:00:00Z`, endTime: end, hourlyWage: 20, ...body });
};

export const approve = (w: Workplace, periodId: string, employeeIds: string[], token = w.org.adminToken) =>
  api("POST", `${periodsPath(w.org)}/${periodId}/approvals`, { token, body: { employeeIds } });

export const closePeriod = (w: Workplace, periodId: string, body: Record<string, unknown> = {}, token = w.org.adminToken) =>
  api("POST", `${periodsPath(w.org)}/${periodId}/close`, { token, body });

export const reopenPeriod = (w: Workplace, periodId: string, reason = "A late correction") =>
  api("POST", `${periodsPath(w.org)}/${periodId}/reopen`, { token: w.org.adminToken, body: { reason } });

export const feed = async (org: OrganizationFixture) =>
  (await api("GET", `/api/organizations/${org.id}/events?limit=500`, { token: org.adminToken })).body as {
    type: string;
    data: Record<string, unknown>;
  }[];
