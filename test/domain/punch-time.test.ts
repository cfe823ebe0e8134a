import { describe, expect, it } from "vitest";
import { validateOccurredAt } from "@/domain/punch-time";

const receivedAt = new Date("2026-06-01T12:00:00.000Z");
const offset = (ms: number) => new Date(receivedAt.getTime() + ms);
const MINUTE = 60_000;
const HOUR = 60 * MINUTE;

describe("validateOccurredAt", () => {
  it("uses the receipt time when occurredAt is absent", () => {
    expect(validateOccurredAt({ receivedAt })).toEqual({ ok: true, at: receivedAt });
    expect(validateOccurredAt({ receivedAt, previousEventAt: offset(-HOUR) })).toEqual({ ok: true, at: receivedAt });
  });

  it("without occurredAt, never lands before a previous event stamped within the skew", () => {
    expect(validateOccurredAt({ receivedAt, previousEventAt: offset(MINUTE) })).toEqual({ ok: true, at: offset(MINUTE) });
  });

  it("allows up to 2 minutes in the future", () => {
    expect(validateOccurredAt({ occurredAt: offset(2 * MINUTE), receivedAt })).toEqual({ ok: true, at: offset(2 * MINUTE) });
    expect(validateOccurredAt({ occurredAt: offset(2 * MINUTE + 1), receivedAt })).toMatchObject({
      ok: false,
      code: "OCCURRED_AT_IN_FUTURE",
    });
  });

  it("allows up to 72 hours in the past", () => {
    expect(validateOccurredAt({ occurredAt: offset(-72 * HOUR), receivedAt })).toEqual({ ok: true, at: offset(-72 * HOUR) });
    expect(validateOccurredAt({ occurredAt: offset(-72 * HOUR - 1), receivedAt })).toMatchObject({
      ok: false,
      code: "OCCURRED_AT_TOO_OLD",
    });
  });

  it("allows the previous event's instant but not earlier", () => {
    const previousEventAt = offset(-HOUR);
    expect(validateOccurredAt({ occurredAt: previousEventAt, receivedAt, previousEventAt })).toEqual({
      ok: true,
      at: previousEventAt,
    });
    const refused = validateOccurredAt({ occurredAt: offset(-HOUR - 1), receivedAt, previousEventAt });
    expect(refused).toMatchObject({ ok: false, code: "OCCURRED_AT_BEFORE_PREVIOUS_EVENT" });
    expect(!refused.ok && refused.message).toContain(previousEventAt.toISOString());
  });
});
