import { describe, expect, it } from "vitest";
import { sandboxWeek } from "@/domain/sandbox-seed";

describe("sandboxWeek", () => {
  // 2026-03-06 03:00Z is 22:00 on Thursday 5 March in New York: the week runs 6-12 March, across the switch to
  // daylight time on Sunday 8 March (EST −5 h before, EDT −4 h from then).
  // Built inside each test, not at collection: mutation testing maps the code each test runs.
  const newYorkWeek = () => sandboxWeek(new Date("2026-03-06T03:00:00Z"), "America/New_York");

  it("holds each of the three staff on each of the seven local days after the local today", () => {
    const week = newYorkWeek();
    expect(week).toHaveLength(21);
    expect(week.map((s) => `${s.date}/${s.staffIndex}`).slice(0, 4)).toEqual([
      "2026-03-06/0",
      "2026-03-06/1",
      "2026-03-06/2",
      "2026-03-07/0",
    ]);
    expect(week.at(-1)).toMatchObject({ staffIndex: 2, date: "2026-03-12" });
  });

  it("works 09:00-17:00 local, the offset of each day", () => {
    const week = newYorkWeek();
    expect(week[0]).toEqual({
      staffIndex: 0,
      date: "2026-03-06",
      startAt: new Date("2026-03-06T14:00:00Z"),
      endAt: new Date("2026-03-06T22:00:00Z"),
      utcOffset: -300,
    });
    expect(week[8]).toEqual({
      staffIndex: 2,
      date: "2026-03-08",
      startAt: new Date("2026-03-08T13:00:00Z"),
      endAt: new Date("2026-03-08T21:00:00Z"),
      utcOffset: -240,
    });
  });

  it("east of UTC too", () => {
    // 2026-06-01 20:00Z is 05:00 on 2 June in Tokyo (+9 h): the week starts 3 June.
    expect(sandboxWeek(new Date("2026-06-01T20:00:00Z"), "Asia/Tokyo")[0]).toEqual({
      staffIndex: 0,
      date: "2026-06-03",
      startAt: new Date("2026-06-03T00:00:00Z"),
      endAt: new Date("2026-06-03T08:00:00Z"),
      utcOffset: 540,
    });
  });
});
