import { describe, expect, it } from "vitest";
import { addedPremiumBands, addedPremiumOf, changePremium, type ScheduleChange } from "@/domain/fair-workweek/change-premium";
import { allRulePacks, applyOverrides, type RulePack, type RulePackId, rulePack } from "@/domain/fair-workweek/packs";

/* Issue 33: each predictability-pay figure as a table, each row named for the ordinance's own words. */

const DAY = 24 * 60;
const HOUR = 60;
const ON = "2026-11-27";

const pack = (id: RulePackId, onDate = ON): RulePack => {
  const found = rulePack(id, onDate);
  if (!found) throw new Error(`no ${id} pack on ${onDate}`);
  return found;
};

const change = (kind: ScheduleChange["kind"], noticeMinutes: number, over: Partial<ScheduleChange> = {}): ScheduleChange => ({
  kind,
  noticeMinutes,
  minutesLost: kind === "SHORTENED" ? 120 : kind === "CANCELLED" || kind === "REASSIGNED" ? 480 : 0,
  minutesAdded: kind === "ADDED" ? 480 : kind === "EXTENDED" ? 120 : 0,
  originalMinutes: kind === "ADDED" ? 0 : 480,
  initiatedBy: "EMPLOYER",
  exemption: null,
  ...over,
});

type Row = [name: string, change: ScheduleChange, expected: { hours: number | null; amount: number | null; rule: string } | null];

const table = (id: RulePackId, rows: Row[], onDate = ON) =>
  describe(id, () => {
    it.each(rows)("%s", (_name, input, expected) => {
      expect(changePremium(pack(id, onDate), input)).toEqual(expected);
    });
  });

table("NYC_FAST_FOOD", [
  ["§20-1222: exactly 14 days' notice is the schedule itself → no premium", change("ADDED", 14 * DAY), null],
  [
    "§20-1222: 7–13 days' notice, shift added → $10",
    change("ADDED", 10 * DAY),
    { hours: null, amount: 10, rule: "NYC_FAST_FOOD.CHANGE_7_TO_13_DAYS_ADDED" },
  ],
  [
    "§20-1222: exactly 7 days' notice, 'a change in the date or time of a work shift with no loss of hours' → $10",
    change("MOVED", 7 * DAY, { movedMinutes: 60 }),
    { hours: null, amount: 10, rule: "NYC_FAST_FOOD.CHANGE_7_TO_13_DAYS_ADDED" },
  ],
  [
    "§20-1222: 7–13 days' notice, 'results in any loss of hours' → $20",
    change("SHORTENED", 13 * DAY),
    { hours: null, amount: 20, rule: "NYC_FAST_FOOD.CHANGE_7_TO_13_DAYS_CUT" },
  ],
  [
    "§20-1222: under 7 days' notice, additional hours → $15",
    change("EXTENDED", 7 * DAY - 1),
    { hours: null, amount: 15, rule: "NYC_FAST_FOOD.CHANGE_UNDER_7_DAYS_ADDED" },
  ],
  [
    "§20-1222: exactly 24 hours' notice, loss of hours → $45",
    change("CANCELLED", 24 * HOUR),
    { hours: null, amount: 45, rule: "NYC_FAST_FOOD.CHANGE_UNDER_7_DAYS_CUT" },
  ],
  [
    "§20-1222: less than 24 hours' notice, loss of hours → $75",
    change("SHORTENED", 24 * HOUR - 1),
    { hours: null, amount: 75, rule: "NYC_FAST_FOOD.CHANGE_UNDER_7_DAYS_CUT_24H" },
  ],
  [
    "§20-1222: a move that loses time is a loss of hours → $20",
    change("MOVED", 8 * DAY, { minutesLost: 30, movedMinutes: 90 }),
    { hours: null, amount: 20, rule: "NYC_FAST_FOOD.CHANGE_7_TO_13_DAYS_CUT" },
  ],
  ["§20-1222: a change the employee requested in writing → no premium", change("SHORTENED", 2 * HOUR, { initiatedBy: "EMPLOYEE" }), null],
  ["§20-1222: a mutually agreed shift swap → no premium", change("REASSIGNED", 2 * HOUR, { exemption: "MUTUAL_CONSENT" }), null],
  [
    "§20-1222: force majeure (acts of nature, utilities failing) → no premium",
    change("CANCELLED", 60, { exemption: "FORCE_MAJEURE" }),
    null,
  ],
]);

table("SEATTLE", [
  ["SMC 14.22.050: exactly 14 days' notice → no premium", change("EXTENDED", 14 * DAY), null],
  [
    "SMC 14.22.050: 'adds hours' inside 14 days → one hour of additional pay",
    change("EXTENDED", 13 * DAY),
    { hours: 1, amount: null, rule: "SEATTLE.CHANGE_UNDER_14_DAYS_ADDED" },
  ],
  [
    "SMC 14.22.050: 'changes the date or time of a work shift with no loss of hours' at 24 hours → one hour",
    change("MOVED", 24 * HOUR, { movedMinutes: 120 }),
    { hours: 1, amount: null, rule: "SEATTLE.CHANGE_UNDER_14_DAYS_ADDED" },
  ],
  [
    "SMC 14.22.050: 'subtracts hours' (2 h cut) → half the regular rate for the hours not worked: 1 h",
    change("SHORTENED", 3 * DAY),
    { hours: 1, amount: null, rule: "SEATTLE.CHANGE_UNDER_14_DAYS_CUT" },
  ],
  [
    "SMC 14.22.050: 'cancels a work shift' of 8 h under 24 hours → 4 h",
    change("CANCELLED", 60),
    { hours: 4, amount: null, rule: "SEATTLE.CHANGE_UNDER_14_DAYS_CUT" },
  ],
  ["SMC 14.22.050: a change the employee requested → no premium", change("CANCELLED", 60, { exemption: "EMPLOYEE_REQUEST" }), null],
  [
    "Seattle has no 15-minute grace: a 10-minute cut → 5 minutes' half-pay",
    change("SHORTENED", DAY, { minutesLost: 10 }),
    {
      hours: 0.0833,
      amount: null,
      rule: "SEATTLE.CHANGE_UNDER_14_DAYS_CUT",
    },
  ],
]);

table("SAN_FRANCISCO", [
  ["Police Code Art. 33G: exactly 7 days' notice → no predictability pay", change("MOVED", 7 * DAY, { movedMinutes: 60 }), null],
  [
    "Art. 33G: 'less than seven days' notice but 24 hours or more' → one hour of pay",
    change("ADDED", 6 * DAY),
    { hours: 1, amount: null, rule: "SAN_FRANCISCO.CHANGE_UNDER_7_DAYS" },
  ],
  [
    "Art. 33G: exactly 24 hours' notice → one hour of pay",
    change("CANCELLED", 24 * HOUR),
    { hours: 1, amount: null, rule: "SAN_FRANCISCO.CHANGE_UNDER_7_DAYS" },
  ],
  [
    "Art. 33G: 'less than 24 hours' notice', a shift of four hours or less → two hours of pay",
    change("CANCELLED", 23 * HOUR, { originalMinutes: 240, minutesLost: 240 }),
    { hours: 2, amount: null, rule: "SAN_FRANCISCO.CHANGE_UNDER_24H" },
  ],
  [
    "Art. 33G: 'less than 24 hours' notice', a shift of more than four hours → four hours of pay",
    change("SHORTENED", 23 * HOUR, { originalMinutes: 241 }),
    { hours: 4, amount: null, rule: "SAN_FRANCISCO.CHANGE_UNDER_24H" },
  ],
  ["Art. 33G: a change the employee asked for → nothing", change("SHORTENED", 2 * HOUR, { initiatedBy: "EMPLOYEE" }), null],
]);

table("OREGON", [
  ["ORS 653.436: exactly 14 days' notice → no additional pay", change("ADDED", 14 * DAY), null],
  [
    "ORS 653.455(1)(a): 'adds more than 30 minutes of work' (31) → one hour of pay",
    change("EXTENDED", 5 * DAY, { minutesAdded: 31 }),
    { hours: 1, amount: null, rule: "OREGON.CHANGE_UNDER_14_DAYS_ADDED" },
  ],
  [
    "ORS 653.455(1)(a): adding exactly 30 minutes is not 'more than 30 minutes' → nothing",
    change("EXTENDED", 5 * DAY, { minutesAdded: 30 }),
    null,
  ],
  [
    "ORS 653.455(2)(a)(B): 'changes the date or start or end time ... with no loss of hours' (moved 31 min) → one hour",
    change("MOVED", 24 * HOUR, { movedMinutes: 31 }),
    { hours: 1, amount: null, rule: "OREGON.CHANGE_UNDER_14_DAYS_ADDED" },
  ],
  [
    "ORS 653.455(1)(b): 'one-half times the regular rate ... for each scheduled hour' cancelled (8 h) → 4 h",
    change("CANCELLED", 7 * DAY),
    { hours: 4, amount: null, rule: "OREGON.CHANGE_UNDER_14_DAYS_CUT" },
  ],
  ["ORS 653.455(2): the employee's own request → nothing", change("ADDED", DAY, { initiatedBy: "EMPLOYEE" }), null],
]);

table("OREGON", [
  [
    "(3)(a): start 31 min later, end where it was (SHORTENED, 31 min lost) → 0.5 × 31 ÷ 60 = 0.2583 h",
    change("SHORTENED", 2 * DAY, { movedMinutes: 31, minutesLost: 31 }),
    { hours: 0.2583, amount: null, rule: "OREGON.CHANGE_UNDER_14_DAYS_CUT" },
  ],
]);

describe("a band that pays nothing (a location's overrides)", () => {
  const zero = applyOverrides(pack("CUSTOM"), {
    noticeDays: 14,
    changePay: [
      { code: "ZERO", kinds: ["ADDED"], minNoticeMinutes: 0, maxNoticeMinutes: DAY, premium: { type: "HOURS", hours: 0 } },
      {
        code: "LEN",
        kinds: ["ADDED"],
        minNoticeMinutes: DAY,
        maxNoticeMinutes: 14 * DAY,
        premium: { type: "HOURS_BY_SHIFT_LENGTH", maxShiftMinutes: 240, hoursUpTo: 0, hoursOver: 2 },
      },
      {
        code: "CUT",
        kinds: ["SHORTENED"],
        minNoticeMinutes: 0,
        maxNoticeMinutes: 14 * DAY,
        premium: { type: "FRACTION_OF_LOST_HOURS", fraction: 0 },
      },
    ],
  });

  it("records no premium: zero hours, zero of the lost hours, zero up to the shift length", () => {
    expect(changePremium(zero, change("ADDED", 10 * HOUR))).toBeNull();
    expect(changePremium(zero, change("SHORTENED", 2 * DAY))).toBeNull();
    expect(changePremium(zero, change("ADDED", 2 * DAY, { minutesAdded: 180 }))).toBeNull();
    expect(changePremium(zero, change("ADDED", 2 * DAY, { minutesAdded: 480 }))).toEqual({ hours: 2, amount: null, rule: "CUSTOM.LEN" });
  });

  it("the publish's bands say the same", () => {
    expect(addedPremiumBands(zero)).toEqual([
      { minNoticeMinutes: 0, maxNoticeMinutes: DAY, longerThan: null, atMost: null, premium: null },
      { minNoticeMinutes: DAY, maxNoticeMinutes: 14 * DAY, longerThan: null, atMost: 240, premium: null },
      {
        minNoticeMinutes: DAY,
        maxNoticeMinutes: 14 * DAY,
        longerThan: 240,
        atMost: null,
        premium: { hours: 2, amount: null, rule: "CUSTOM.LEN" },
      },
    ]);
  });
});

/*
 * ORS 653.455(3)(a): no additional compensation when "an employer changes the start or end time of an employee's work
 * shift by 30 minutes or less" — at the limit (30), one minute inside (29) and one outside (31), for each kind of time
 * change. An 8-hour shift 09:00–17:00: its end is start's move + added − lost.
 */
table("OREGON", [
  ["(3)(a): start moved 30 min later, same length (MOVED) → nothing", change("MOVED", 2 * DAY, { movedMinutes: 30 }), null],
  ["(3)(a): start moved 29 min earlier, same length (MOVED) → nothing", change("MOVED", 2 * DAY, { movedMinutes: -29 }), null],
  [
    "(3)(a): start moved 31 min later, same length (MOVED) → one hour (ORS 653.455(2)(a)(B))",
    change("MOVED", 2 * DAY, { movedMinutes: 31 }),
    { hours: 1, amount: null, rule: "OREGON.CHANGE_UNDER_14_DAYS_ADDED" },
  ],
  [
    "(3)(a): end 30 min earlier (SHORTENED, 30 min lost) → nothing",
    change("SHORTENED", 2 * DAY, { movedMinutes: 0, minutesLost: 30 }),
    null,
  ],
  [
    "(3)(a): end 29 min earlier (SHORTENED, 29 min lost) → nothing",
    change("SHORTENED", 2 * DAY, { movedMinutes: 0, minutesLost: 29 }),
    null,
  ],
  [
    "(3)(a): end 31 min earlier (SHORTENED) → half the regular rate for 31 min: 0.5 × 31 ÷ 60 = 0.2583 h",
    change("SHORTENED", 2 * DAY, { movedMinutes: 0, minutesLost: 31 }),
    { hours: 0.2583, amount: null, rule: "OREGON.CHANGE_UNDER_14_DAYS_CUT" },
  ],
  [
    "(3)(a): start 30 min later (SHORTENED, 30 min lost) → nothing",
    change("SHORTENED", 2 * DAY, { movedMinutes: 30, minutesLost: 30 }),
    null,
  ],
  [
    "(3)(a): start 30 min earlier and end 30 min later (EXTENDED by 60) → nothing, though 60 min are added",
    change("EXTENDED", 2 * DAY, { movedMinutes: -30, minutesAdded: 60 }),
    null,
  ],
  [
    "(3)(a): start 29 min earlier and end 31 min later (EXTENDED by 60) → one hour",
    change("EXTENDED", 2 * DAY, { movedMinutes: -29, minutesAdded: 60 }),
    { hours: 1, amount: null, rule: "OREGON.CHANGE_UNDER_14_DAYS_ADDED" },
  ],
  [
    "(3)(a) is about the same shift's times: a cancelled shift → half of its 8 h = 4 h",
    change("CANCELLED", 2 * DAY, { movedMinutes: 0 }),
    { hours: 4, amount: null, rule: "OREGON.CHANGE_UNDER_14_DAYS_CUT" },
  ],
]);

table(
  "OREGON",
  [
    ["ORS 653.436 (2018–2020 text): 'seven calendar days' notice' → 10 days' notice is no change", change("ADDED", 10 * DAY), null],
    ["ORS 653.436 (2018–2020 text): exactly 7 days → nothing", change("ADDED", 7 * DAY), null],
    [
      "ORS 653.455 (2018–2020 text): under 7 days, shift added → one hour",
      change("ADDED", 6 * DAY),
      { hours: 1, amount: null, rule: "OREGON.CHANGE_UNDER_7_DAYS_ADDED" },
    ],
  ],
  "2019-03-01",
);

table("LOS_ANGELES", [
  ["LAMC Fair Work Week: exactly 14 days' notice → no predictability pay", change("EXTENDED", 14 * DAY), null],
  [
    "LAMC: a change of date, time or location that 'does not result in a loss of time' → one additional hour",
    change("MOVED", 3 * DAY, { movedMinutes: 5 }),
    { hours: 1, amount: null, rule: "LOS_ANGELES.CHANGE_UNDER_14_DAYS_ADDED" },
  ],
  [
    "LAMC: 'additional work time that exceeds 15 minutes' (16) → one hour",
    change("EXTENDED", 24 * HOUR, { minutesAdded: 16 }),
    { hours: 1, amount: null, rule: "LOS_ANGELES.CHANGE_UNDER_14_DAYS_ADDED" },
  ],
  ["LAMC grace: exactly 15 minutes added does not exceed 15 minutes → nothing", change("EXTENDED", 24 * HOUR, { minutesAdded: 15 }), null],
  [
    "LAMC: work time 'reduced by at least 15 minutes' (exactly 15) → one-half the rate for the 15 minutes",
    change("SHORTENED", 2 * DAY, { minutesLost: 15 }),
    { hours: 0.125, amount: null, rule: "LOS_ANGELES.CHANGE_UNDER_14_DAYS_CUT" },
  ],
  ["LAMC grace: reduced by 14 minutes → nothing", change("SHORTENED", 2 * DAY, { minutesLost: 14 }), null],
  [
    "LAMC: 'an Employee initiates the requested Work Schedule change' → nothing",
    change("CANCELLED", 60, { initiatedBy: "EMPLOYEE" }),
    null,
  ],
]);

table("CHICAGO", [
  ["MCC ch. 6-110: exactly 14 days' notice → no predictability pay", change("ADDED", 14 * DAY), null],
  [
    "MCC ch. 6-110: 'adds hours of work' within 14 days → one hour of predictability pay",
    change("ADDED", 13 * DAY),
    { hours: 1, amount: null, rule: "CHICAGO.CHANGE_UNDER_14_DAYS" },
  ],
  [
    "MCC ch. 6-110: 'with more than 24 hours' notice, cancels or subtracts hours' → one hour",
    change("CANCELLED", 24 * HOUR),
    { hours: 1, amount: null, rule: "CHICAGO.CHANGE_UNDER_14_DAYS_CUT" },
  ],
  [
    "MCC ch. 6-110: 'less than 24 hours' notice, subtracts hours' (8 h cancelled) → 50%: 4 h",
    change("CANCELLED", 24 * HOUR - 1),
    { hours: 4, amount: null, rule: "CHICAGO.CUT_UNDER_24H" },
  ],
  [
    "MCC ch. 6-110: 'changes the date or time ... with no loss of hours' → one hour",
    change("MOVED", 2 * DAY, { movedMinutes: 60 }),
    { hours: 1, amount: null, rule: "CHICAGO.CHANGE_UNDER_14_DAYS" },
  ],
  ["MCC ch. 6-110: mutually agreed shift trade → nothing", change("REASSIGNED", DAY, { exemption: "MUTUAL_CONSENT" }), null],
]);

table(
  "CHICAGO",
  [
    ["MCC ch. 6-110 (2020–2022 text): 'at least 10 days' → 10 days' notice is no change", change("ADDED", 10 * DAY), null],
    [
      "MCC ch. 6-110 (2020–2022 text): 9 days' notice → one hour",
      change("ADDED", 9 * DAY),
      { hours: 1, amount: null, rule: "CHICAGO.CHANGE_UNDER_10_DAYS" },
    ],
  ],
  "2021-06-01",
);

table("PHILADELPHIA", [
  ["Phila. Code 9-4600: exactly 14 days' notice → no predictability pay", change("ADDED", 14 * DAY), null],
  [
    "9-4600: 'adds time to a work shift' → one hour at the regular rate",
    change("EXTENDED", 7 * DAY),
    { hours: 1, amount: null, rule: "PHILADELPHIA.CHANGE_UNDER_14_DAYS_ADDED" },
  ],
  [
    "9-4600: 'changes the date or time ... with no loss of hours' at exactly 24 hours → one hour",
    change("MOVED", 24 * HOUR, { movedMinutes: 30 }),
    { hours: 1, amount: null, rule: "PHILADELPHIA.CHANGE_UNDER_14_DAYS_ADDED" },
  ],
  [
    "9-4600: 'subtracts hours' → one-half the regular rate for the hours not worked (2 h → 1 h)",
    change("SHORTENED", 3 * DAY),
    { hours: 1, amount: null, rule: "PHILADELPHIA.CHANGE_UNDER_14_DAYS_CUT" },
  ],
  [
    "9-4600: 'cancels a work shift' (8 h) → 4 h",
    change("CANCELLED", 2 * HOUR),
    { hours: 4, amount: null, rule: "PHILADELPHIA.CHANGE_UNDER_14_DAYS_CUT" },
  ],
  ["9-4600: 'the change was requested by the employee' → nothing", change("SHORTENED", DAY, { exemption: "EMPLOYEE_REQUEST" }), null],
]);

for (const id of ["EVANSTON", "BERKELEY", "EMERYVILLE"] as const) {
  table(id, [
    [`${id}: exactly 14 days' notice → no predictability pay`, change("ADDED", 14 * DAY), null],
    [
      `${id}: a shift added inside 14 days → one hour`,
      change("ADDED", 13 * DAY),
      { hours: 1, amount: null, rule: `${id}.CHANGE_UNDER_14_DAYS` },
    ],
    [
      `${id}: exactly 24 hours' notice, hours cut → one hour`,
      change("SHORTENED", 24 * HOUR),
      { hours: 1, amount: null, rule: `${id}.CHANGE_UNDER_14_DAYS` },
    ],
    [
      `${id}: a shift cancelled under 24 hours → one hour`,
      change("CANCELLED", 60),
      { hours: 1, amount: null, rule: `${id}.CHANGE_UNDER_14_DAYS` },
    ],
    [`${id}: a change the worker asked for → nothing`, change("MOVED", DAY, { initiatedBy: "EMPLOYEE" }), null],
  ]);
}

describe("CUSTOM", () => {
  it("has no bands: no change earns anything until overrides add some", () => {
    expect(changePremium(pack("CUSTOM"), change("CANCELLED", 60))).toBeNull();
  });
});

describe("addedPremiumBands: the ADDED premium a set-based publish applies in SQL", () => {
  // Every version of every pack, and overrides that move the window inside a band and add a band paying nothing first.
  const packs: RulePack[] = [
    ...allRulePacks(),
    applyOverrides(pack("NYC_FAST_FOOD"), { noticeDays: 10 }),
    applyOverrides(pack("SAN_FRANCISCO"), { noticeDays: 3 }),
    // A window ending where a band starts: the 7-to-13-day band lies wholly outside it.
    applyOverrides(pack("NYC_FAST_FOOD"), { noticeDays: 7 }),
    // A fraction of lost hours paid for ADDED changes too: an added entry loses nothing, so nothing, and it stops the search.
    applyOverrides(pack("CUSTOM"), {
      noticeDays: 14,
      changePay: [
        {
          code: "HALF_LOST",
          kinds: ["ADDED", "CANCELLED"],
          minNoticeMinutes: 0,
          maxNoticeMinutes: DAY,
          premium: { type: "FRACTION_OF_LOST_HOURS", fraction: 0.5 },
        },
        { code: "ANY", kinds: ["ADDED"], minNoticeMinutes: 0, maxNoticeMinutes: 14 * DAY, premium: { type: "HOURS", hours: 1 } },
      ],
    }),
    applyOverrides(pack("CUSTOM"), {
      noticeDays: 20,
      changePay: [
        { code: "NOTHING_UNDER_1H", kinds: ["ADDED"], minNoticeMinutes: 0, maxNoticeMinutes: HOUR, premium: { type: "FLAT", amount: 0 } },
        { code: "ANY", kinds: ["ADDED", "MOVED"], minNoticeMinutes: 0, maxNoticeMinutes: 30 * DAY, premium: { type: "HOURS", hours: 2 } },
      ],
    }),
  ];
  // Notice at each edge: 0, 1 h, exactly 24 h, exactly 7 days, exactly 14 days, and a minute either side.
  const notices = [
    0,
    1,
    HOUR - 1,
    HOUR,
    DAY - 1,
    DAY,
    DAY + 1,
    3 * DAY,
    7 * DAY - 1,
    7 * DAY,
    7 * DAY + 1,
    10 * DAY,
    14 * DAY - 1,
    14 * DAY,
    14 * DAY + 1,
    20 * DAY,
  ];
  const lengths = [30, 60, 4 * HOUR - 1, 4 * HOUR, 4 * HOUR + 1, 8 * HOUR, 12 * HOUR];
  it.each(packs.map((p) => [`${p.id} v${p.version} (${p.noticeDays} days)`, p] as const))(
    "%s: the same premium as changePremium",
    (_name, p) => {
      const bands = addedPremiumBands(p);
      for (const notice of notices)
        for (const minutes of lengths) {
          const expected = changePremium(p, change("ADDED", notice, { minutesAdded: minutes }));
          expect([notice, minutes, addedPremiumOf(bands, notice, minutes)]).toEqual([notice, minutes, expected]);
        }
    },
  );

  it("a band wholly outside the window gives none; a fraction of lost hours gives a band paying nothing", () => {
    expect(addedPremiumBands(applyOverrides(pack("NYC_FAST_FOOD"), { noticeDays: 7 }))).toEqual([
      {
        minNoticeMinutes: 0,
        maxNoticeMinutes: 7 * DAY,
        longerThan: null,
        atMost: null,
        premium: { hours: null, amount: 15, rule: "NYC_FAST_FOOD.CHANGE_UNDER_7_DAYS_ADDED" },
      },
    ]);
    const half = applyOverrides(pack("CUSTOM"), {
      changePay: [
        {
          code: "HALF_LOST",
          kinds: ["ADDED"],
          minNoticeMinutes: 0,
          maxNoticeMinutes: DAY,
          premium: { type: "FRACTION_OF_LOST_HOURS", fraction: 0.5 },
        },
      ],
    });
    expect(addedPremiumBands(half)).toEqual([
      { minNoticeMinutes: 0, maxNoticeMinutes: DAY, longerThan: null, atMost: null, premium: null },
    ]);
  });

  it("NYC: $15 under 7 days, $10 from exactly 7 days, nothing from exactly 14 days", () => {
    const bands = addedPremiumBands(pack("NYC_FAST_FOOD"));
    expect(addedPremiumOf(bands, 7 * DAY - 1, 480)?.amount).toBe(15);
    expect(addedPremiumOf(bands, 7 * DAY, 480)?.amount).toBe(10);
    expect(addedPremiumOf(bands, 14 * DAY, 480)).toBeNull();
  });

  it("San Francisco: under exactly 24 h, 2 hours for a shift of 4 hours or less, 4 for a longer one; 1 hour from 24 h", () => {
    const bands = addedPremiumBands(pack("SAN_FRANCISCO"));
    expect(addedPremiumOf(bands, DAY - 1, 4 * HOUR)?.hours).toBe(2);
    expect(addedPremiumOf(bands, DAY - 1, 4 * HOUR + 1)?.hours).toBe(4);
    expect(addedPremiumOf(bands, DAY, 4 * HOUR + 1)?.hours).toBe(1);
  });
});
