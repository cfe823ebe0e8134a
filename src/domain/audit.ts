import type { Principal } from "./permissions";

export const ACTOR_TYPES = ["PARTNER", "STAFF_MEMBER", "DEVICE", "OPERATOR", "SYSTEM"] as const;
export type ActorType = (typeof ACTOR_TYPES)[number];

export interface Actor {
  type: ActorType;
  id: string;
  /** The kiosk device a staff member or the device itself acted through. */
  deviceId: string | null;
}

/** Who a write's principal is: a kiosk device, a staff member (their own token), else the partner (its backend). */
export function actorOf(principal: Principal): Actor {
  if (principal.device) return { type: "DEVICE", id: principal.device.deviceId, deviceId: principal.device.deviceId };
  if (principal.staffMemberId !== null) return { type: "STAFF_MEMBER", id: principal.staffMemberId, deviceId: null };
  return { type: "PARTNER", id: principal.partnerId, deviceId: null };
}

/**
 * The writers with no person behind them, each a SYSTEM actor whose id names it: the Cron's attendance pass (no-shows,
 * automatic clock-outs), the pay close run as a durable job, webhook delivery (an endpoint disabled after its failures),
 * the Cron's time-off accrual pass (its ledger entries, as a job too: jobs/accrual-pass).
 */
export const SYSTEM_ACTOR_IDS = ["attendance-pass", "pay-close-job", "webhook-delivery", "accrual-pass"] as const;
export type SystemActorId = (typeof SYSTEM_ACTOR_IDS)[number];

/** A background job's actor. */
export const systemActor = (id: SystemActorId): Actor => ({ type: "SYSTEM", id, deviceId: null });

/** The operator's actor (the routes under /operator, authorized by OPERATOR_SECRET: no partner, no token): a move between shards. */
export const OPERATOR_ACTOR: Actor = { type: "OPERATOR", id: "operator", deviceId: null };

/**
 * Records a person may dispute (a worker, a manager, an inspector): their audit entries keep the record before and
 * after the write. Resource types are the events' (the part of the type before the dot): a break is its shift's.
 */
export const DISPUTABLE_RESOURCE_TYPES = [
  "shift",
  "schedule_entry",
  "time_off_request",
  "wage_rate",
  "pay_period",
  "timesheet",
  "attendance_exception",
] as const;
