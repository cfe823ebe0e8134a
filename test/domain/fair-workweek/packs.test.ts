import { describe, expect, it } from "vitest";
import { changePremium } from "@/domain/fair-workweek/change-premium";
import { applyOverrides, RULE_PACK_IDS, RULE_PACKS, rulePack } from "@/domain/fair-workweek/packs";
import { restPremium, restViolation } from "@/domain/fair-workweek/rest";

describe("rulePack: the version in effect on a date", () => {
  it.each([
    ["OREGON", "2018-06-30", null],
    ["OREGON", "2018-07-01", 7],
    ["OREGON", "2020-06-30", 7],
    ["OREGON", "2020-07-01", 14],
    ["CHICAGO", "2022-06-30", 10],
    ["CHICAGO", "2022-07-01", 14],
    ["NYC_FAST_FOOD", "2017-11-25", null],
    ["NYC_FAST_FOOD", "2017-11-26", 14],
  ] as const)("%s on %s → notice %s days", (id, onDate, noticeDays) => {
    expect(rulePack(id, onDate)?.noticeDays ?? null).toBe(noticeDays);
  });

  it("every id has a version today, and every version cites its source in a description", () => {
    for (const id of RULE_PACK_IDS) expect(rulePack(id, "2026-11-27")?.id).toBe(id);
    for (const pack of RULE_PACKS) expect(pack.description.length).toBeGreaterThan(80);
  });

  it("versions of one pack have distinct effective dates and increasing version numbers", () => {
    for (const id of RULE_PACK_IDS) {
      const versions = RULE_PACKS.filter((p) => p.id === id);
      const sorted = [...versions].sort((a, b) => a.effectiveFrom.localeCompare(b.effectiveFrom));
      expect(sorted.map((p) => p.version)).toEqual(versions.map((_, i) => i + 1));
    }
  });
});

describe("applyOverrides", () => {
  const custom = rulePack("CUSTOM", "2026-11-27")!;

  it("a CUSTOM pack gains a notice window, a band, a rest rule and a grace", () => {
    const pack = applyOverrides(custom, {
      noticeDays: 7,
      graceMinutes: 10,
      changePay: [
        {
          code: "ANY",
          kinds: ["ADDED", "CANCELLED"],
          minNoticeMinutes: 0,
          maxNoticeMinutes: 7 * 1440,
          premium: { type: "FLAT", amount: 25 },
        },
      ],
      rest: { minHours: 8, premium: "FLAT", value: 30, consentRequired: true },
    });
    expect(pack.noticeDays).toBe(7);
    expect([pack.graceMinutes, applyOverrides(custom, { timeChangeGraceMinutes: 5 }).timeChangeGraceMinutes]).toEqual([10, 5]);
    const base = {
      noticeMinutes: 60,
      minutesLost: 480,
      minutesAdded: 0,
      originalMinutes: 480,
      initiatedBy: "EMPLOYER",
      exemption: null,
    } as const;
    expect(changePremium(pack, { ...base, kind: "CANCELLED" })).toEqual({ hours: null, amount: 25, rule: "CUSTOM.ANY" });
    expect(changePremium(pack, { ...base, kind: "CANCELLED", noticeMinutes: 7 * 1440 })).toBeNull();
    const violation = restViolation(
      pack,
      new Date("2026-11-02T22:00:00Z"),
      new Date("2026-11-03T05:00:00Z"),
      new Date("2026-11-03T09:00:00Z"),
      "UTC",
    );
    expect(violation).toMatchObject({ gapMinutes: 420, consentRequired: true, rule: "CUSTOM.REST_UNDER_8H" });
    expect(restPremium(pack, violation!)).toEqual({ hours: null, amount: 30, rule: "CUSTOM.REST_UNDER_8H", flagged: false });
  });

  it("a rest rule on a pack without one: a flat premium on the next shift, no consent, any scope; no hours, no rule", () => {
    expect(applyOverrides(custom, { rest: { minHours: 8, value: 30 } }).rest).toEqual({
      minHours: 8,
      premium: "FLAT",
      value: 30,
      appliesTo: "NEXT_SHIFT",
      consentRequired: false,
      published: true,
      scope: "ANY",
    });
    expect(applyOverrides(custom, { rest: { value: 30 } }).rest).toBeNull();
  });

  it("a field left out keeps the pack's; rest merges field by field; null removes the rest rule", () => {
    const seattle = rulePack("SEATTLE", "2026-11-27")!;
    expect(applyOverrides(seattle, {})).toEqual(seattle);
    expect(applyOverrides(seattle, null)).toBe(seattle);
    expect(applyOverrides(seattle, { rest: { minHours: 12 } }).rest).toEqual({ ...seattle.rest, minHours: 12 });
    expect(applyOverrides(seattle, { rest: null }).rest).toBeNull();
    expect(applyOverrides(seattle, { noticeDays: 21 }).changePay).toBe(seattle.changePay);
  });

  it("does not change the built-in pack", () => {
    const seattle = rulePack("SEATTLE", "2026-11-27")!;
    applyOverrides(seattle, { noticeDays: 3, rest: { value: 2 } });
    expect(rulePack("SEATTLE", "2026-11-27")!.noticeDays).toBe(14);
    expect(rulePack("SEATTLE", "2026-11-27")!.rest!.value).toBe(1.5);
  });
});
