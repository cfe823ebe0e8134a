import { describe, expect, it } from "vitest";
import { classifyChange, type EntryState, insideNoticeWindow, recordedChanges } from "@/domain/fair-workweek/schedule-change";

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
