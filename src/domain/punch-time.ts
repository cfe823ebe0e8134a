export const MAX_FUTURE_SKEW_MS = 2 * 60_000;
export const MAX_PUNCH_AGE_MS = 72 * 60 * 60_000;

export type PunchTimeError = "OCCURRED_AT_IN_FUTURE" | "OCCURRED_AT_TOO_OLD" | "OCCURRED_AT_BEFORE_PREVIOUS_EVENT";

export type PunchTime = { ok: true; at: Date } | { ok: false; code: PunchTimeError; message: string };

/**
 * When a clock or break event happened. Offline punches send `occurredAt`: at most 2 min ahead of the server,
 * at most 72 h old, never before the shift's previous event (each bound inclusive). Without `occurredAt` the
 * server's receipt time is used, raised to the previous event if that one was stamped slightly ahead (within
 * the allowed skew): a punch the client did not date is never refused for the server's own clock.
 */
export function validateOccurredAt(input: { occurredAt?: Date | null; receivedAt: Date; previousEventAt?: Date | null }): PunchTime {
  const { occurredAt, receivedAt, previousEventAt } = input;
  if (!occurredAt) {
    const at = previousEventAt && previousEventAt > receivedAt ? previousEventAt : receivedAt;
    return { ok: true, at };
  }
  const aheadMs = occurredAt.getTime() - receivedAt.getTime();
  if (aheadMs > MAX_FUTURE_SKEW_MS) {
    return { ok: false, code: "OCCURRED_AT_IN_FUTURE", message: "occurredAt is more than 2 minutes in the future." };
  }
  if (-aheadMs > MAX_PUNCH_AGE_MS) {
    return { ok: false, code: "OCCURRED_AT_TOO_OLD", message: "occurredAt is more than 72 hours in the past." };
  }
  if (previousEventAt && occurredAt < previousEventAt) {
    return {
      ok: false,
      code: "OCCURRED_AT_BEFORE_PREVIOUS_EVENT",
      message: `occurredAt is before the shift's previous event (${previousEventAt.toISOString()}).`,
    };
  }
  return { ok: true, at: occurredAt };
}
