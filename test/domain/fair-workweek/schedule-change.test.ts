import { describe, expect, it } from "vitest";
import { rulePack } from "@/domain/fair-workweek/packs";
import {
  type ClassifiedChange,
  changeRulesOf,
  classifyChange,
  type EntryState,
  insideNoticeWindow,
  recordedChanges,
} from "@/domain/fair-workweek/schedule-change";

const at = new Date("2026-06-01T12:00:00Z");
const entry = (start: string, end: string, over: Partial<EntryState> = {}): EntryState => ({
  employeeId: "ann",
  start: new Date(start),
  end: new Date(end),
  published: true,
  deleted: false,
  ...over,
});
// A shift three days out: 4,320 minutes of notice at `at` (2026-06-04 12:00Z).
const base = entry("2026-06-04T12:00:00Z", "2026-06-04T20:00:00Z");
const NOTICE = 3 * 1440;

describe("classifyChange", () => {
  it.each([
    ["a draft published", { ...base, published: false }, base, "ADDED", NOTICE, 0, 480],
    ["a new published entry", null, base, "ADDED", NOTICE, 0, 480],
    ["deleted", base, { ...base, deleted: true }, "CANCELLED", NOTICE, 480, 0],
    ["removed outright", base, null, "CANCELLED", NOTICE, 480, 0],
    ["ends later", base, entry("2026-06-04T12:00:00Z", "2026-06-04T22:00:00Z"), "EXTENDED", NOTICE, 0, 120],
    ["starts earlier", base, entry("2026-06-04T11:00:00Z", "2026-06-04T20:00:00Z"), "EXTENDED", NOTICE - 60, 0, 60],
    ["ends earlier", base, entry("2026-06-04T12:00:00Z", "2026-06-04T16:00:00Z"), "SHORTENED", NOTICE, 240, 0],
    ["starts later", base, entry("2026-06-04T14:00:00Z", "2026-06-04T20:00:00Z"), "SHORTENED", NOTICE, 120, 0],
    ["moved, same length", base, entry("2026-06-05T12:00:00Z", "2026-06-05T20:00:00Z"), "MOVED", NOTICE, 0, 0],
    ["moved and cut", base, entry("2026-06-04T16:00:00Z", "2026-06-04T22:00:00Z"), "MOVED", NOTICE, 120, 0],
    ["moved and lengthened", base, entry("2026-06-04T14:00:00Z", "2026-06-04T23:00:00Z"), "MOVED", NOTICE, 0, 60],
  ] as const)("%s → %s", (_, before, after, kind, noticeMinutes, minutesLost, minutesAdded) => {
    expect(classifyChange(before, after, at)).toMatchObject([{ employeeId: "ann", kind, noticeMinutes, minutesLost, minutesAdded }]);
  });

  it("a reassignment: REASSIGNED for the worker losing it, ADDED for the one gaining it", () => {
    expect(classifyChange(base, { ...base, employeeId: "bob" }, at)).toEqual([
      { employeeId: "ann", kind: "REASSIGNED", noticeMinutes: NOTICE, minutesLost: 480, minutesAdded: 0, movedMinutes: 0 },
      { employeeId: "bob", kind: "ADDED", noticeMinutes: NOTICE, minutesLost: 0, minutesAdded: 480, movedMinutes: 0 },
    ]);
  });

  it.each([
    ["drafts", { ...base, published: false }, { ...base, published: false, end: new Date("2026-06-04T22:00:00Z") }],
    ["a draft deleted", { ...base, published: false }, { ...base, published: false, deleted: true }],
    ["an unchanged entry (a note or role only)", base, { ...base }],
    ["nothing", null, null],
  ] as const)("no change: %s", (_, before, after) => {
    expect(classifyChange(before, after, at)).toEqual([]);
  });

  it("notice runs to the earlier start: a shift moved into the window counts from its new start", () => {
    const far = entry("2026-06-30T12:00:00Z", "2026-06-30T20:00:00Z");
    const [change] = classifyChange(far, base, at);
    expect(change).toMatchObject({ kind: "MOVED", noticeMinutes: NOTICE, movedMinutes: -26 * 1440 });
  });

  it("a shift already started has no notice (0), not a negative one", () => {
    const started = entry("2026-06-01T10:00:00Z", "2026-06-01T18:00:00Z");
    expect(classifyChange(started, entry("2026-06-01T10:00:00Z", "2026-06-01T14:00:00Z"), at)[0]).toMatchObject({
      kind: "SHORTENED",
      noticeMinutes: 0,
      minutesLost: 240,
    });
  });
});

describe("insideNoticeWindow", () => {
  it.each([
    [14 * 1440 - 1, 14, true],
    [14 * 1440, 14, false],
    [0, 14, true],
    [0, null, false],
  ] as const)("%i minutes' notice, %s days → %s", (notice, days, inside) => {
    expect(insideNoticeWindow(notice, days)).toBe(inside);
  });
});

describe("recordedChanges", () => {
  const twoWeeksOut = entry("2026-06-15T12:00:00Z", "2026-06-15T20:00:00Z");
  it("exactly 14 days' notice records nothing; a minute less records the change", () => {
    expect(recordedChanges(twoWeeksOut, null, at, 14)).toEqual([]);
    expect(recordedChanges(twoWeeksOut, null, new Date(at.getTime() + 60_000), 14)).toHaveLength(1);
  });
  it("without a pack nothing is recorded", () => {
    expect(recordedChanges(base, null, at, null)).toEqual([]);
  });
});

describe("changeRulesOf", () => {
  const pack = (id: Parameters<typeof rulePack>[0]) => rulePack(id, "2026-06-01")!;
  const change = (kind: ClassifiedChange["kind"], noticeMinutes: number, over: Partial<ClassifiedChange> = {}): ClassifiedChange => ({
    employeeId: "ann",
    kind,
    noticeMinutes,
    minutesLost: 0,
    minutesAdded: 0,
    movedMinutes: 0,
    ...over,
  });
  const DAY = 1440;

  it("names the pack and its notice window", () => {
    expect(changeRulesOf(pack("NYC_FAST_FOOD"))).toMatchObject({ rulePack: "NYC_FAST_FOOD", noticeDays: 14 });
    expect(changeRulesOf(pack("CHICAGO"))).toMatchObject({ rulePack: "CHICAGO", noticeDays: 14 });
  });

  it("asks consent inside the rest only where the pack does: NYC 11 h on consecutive days, Philadelphia 9 h any day", () => {
    expect(changeRulesOf(pack("NYC_FAST_FOOD")).restConsent).toEqual({ minHours: 11, consecutiveDays: true });
    expect(changeRulesOf(pack("PHILADELPHIA")).restConsent).toEqual({ minHours: 9, consecutiveDays: false });
    expect(changeRulesOf(pack("SEATTLE")).restConsent).toBeNull(); // a premium, no consent
    expect(changeRulesOf(pack("SAN_FRANCISCO")).restConsent).toBeNull(); // no rest rule
    const nyc = pack("NYC_FAST_FOOD");
    expect(changeRulesOf({ ...nyc, rest: { ...nyc.rest!, minHours: 0 } }).restConsent).toBeNull();
  });

  it.each([
    // NYC Admin. Code §20-1222: $15 added with under 7 days' notice, $10 from 7 to 13 days, $20 / $45 / $75 cut.
    ["NYC: added, 3 days", "NYC_FAST_FOOD", change("ADDED", 3 * DAY, { minutesAdded: 240 }), 480, { hours: null, amount: 15 }],
    ["NYC: moved, 8 days", "NYC_FAST_FOOD", change("MOVED", 8 * DAY, { movedMinutes: 60 }), 480, { hours: null, amount: 10 }],
    ["NYC: shortened, 8 days", "NYC_FAST_FOOD", change("SHORTENED", 8 * DAY, { minutesLost: 60 }), 480, { hours: null, amount: 20 }],
    ["NYC: cancelled, 2 days", "NYC_FAST_FOOD", change("CANCELLED", 2 * DAY, { minutesLost: 480 }), 480, { hours: null, amount: 45 }],
    ["NYC: cancelled, 23:59", "NYC_FAST_FOOD", change("CANCELLED", DAY - 1, { minutesLost: 480 }), 480, { hours: null, amount: 75 }],
    // Chicago: half the lost hours when cut with under 24 hours' notice.
    ["Chicago: cancelled 3 h, 12 hours", "CHICAGO", change("CANCELLED", 720, { minutesLost: 180 }), 180, { hours: 1.5, amount: null }],
    // San Francisco under 24 h: 2 hours for a shift of at most 4 hours, 4 beyond (by its length before the change).
    ["SF: shortened, was 4 h", "SAN_FRANCISCO", change("SHORTENED", 600, { minutesLost: 60 }), 240, { hours: 2, amount: null }],
    ["SF: shortened, was 4 h 01", "SAN_FRANCISCO", change("SHORTENED", 600, { minutesLost: 60 }), 241, { hours: 4, amount: null }],
    ["SF: added 5 h, 10 hours", "SAN_FRANCISCO", change("ADDED", 600, { minutesAdded: 300 }), 0, { hours: 4, amount: null }],
  ] as const)("%s", (_, id, classified, entryMinutes, premium) => {
    expect(changeRulesOf(pack(id)).premiumOf(classified, entryMinutes)).toMatchObject(premium);
  });

  it("pays nothing at or beyond the window", () => {
    expect(changeRulesOf(pack("NYC_FAST_FOOD")).premiumOf(change("CANCELLED", 14 * DAY, { minutesLost: 480 }), 480)).toBeNull();
    expect(changeRulesOf(pack("NYC_FAST_FOOD")).premiumOf(change("ADDED", 14 * DAY, { minutesAdded: 480 }), 0)).toBeNull();
  });
});
