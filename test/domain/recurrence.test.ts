import { describe, expect, it } from "vitest";
import { parseRecurrenceRule } from "@/domain/recurrence";

const canonical = (text: string) => {
  const parsed = parseRecurrenceRule(text);
  return parsed.ok ? parsed.recurrence.canonical : `refused: ${parsed.message}`;
};
const refusal = (text: string) => {
  const parsed = parseRecurrenceRule(text);
  return parsed.ok ? null : parsed.message;
};

describe("parseRecurrenceRule (RFC 5545 §3.3.10, strictly)", () => {
  it.each([
    ["FREQ=WEEKLY;BYDAY=MO,WE", "FREQ=WEEKLY;BYDAY=MO,WE"],
    ["FREQ=WEEKLY;BYDAY=mo", "FREQ=WEEKLY;BYDAY=MO"],
    ["FREQ=WEEKLY;BYDAY=Mo", "FREQ=WEEKLY;BYDAY=MO"],
    ["freq=weekly;byday=mo", "FREQ=WEEKLY;BYDAY=MO"],
    ["rrule:Freq=Monthly;ByDay=+1mo,-1Fr", "FREQ=MONTHLY;BYDAY=1MO,-1FR"],
    ["FREQ=MONTHLY;BYSETPOS=-1;BYDAY=MO,TU,WE,TH,FR", "FREQ=MONTHLY;BYSETPOS=-1;BYDAY=MO,TU,WE,TH,FR"],
    ["FREQ=YEARLY;BYMONTH=+03;BYMONTHDAY=-01", "FREQ=YEARLY;BYMONTH=3;BYMONTHDAY=-1"],
    ["FREQ=DAILY;INTERVAL=2;UNTIL=20270101t000000z", "FREQ=DAILY;INTERVAL=2;UNTIL=20270101T000000Z"],
    ["FREQ=WEEKLY;WKST=su;BYDAY=SA,SU;INTERVAL=2", "FREQ=WEEKLY;WKST=SU;BYDAY=SA,SU;INTERVAL=2"],
    ["FREQ=YEARLY;BYWEEKNO=20;BYDAY=MO", "FREQ=YEARLY;BYWEEKNO=20;BYDAY=MO"],
    ["FREQ=YEARLY;BYYEARDAY=1,-1", "FREQ=YEARLY;BYYEARDAY=1,-1"],
    ["FREQ=DAILY;UNTIL=20260301", "FREQ=DAILY;UNTIL=20260301"],
  ])("accepts %s as %s", (text, expected) => {
    expect(canonical(text)).toBe(expected);
  });

  it.each([
    ["FREQ=MONTHLY;BYSETPOS=0;BYDAY=MO", /BYSETPOS/],
    ["FREQ=MONTHLY;BYSETPOS=367;BYDAY=MO", /BYSETPOS/],
    ["FREQ=MONTHLY;BYSETPOS=-367;BYDAY=MO", /BYSETPOS/],
    ["FREQ=MONTHLY;BYSETPOS=400;BYDAY=MO", /BYSETPOS/],
    ["FREQ=MONTHLY;BYSETPOS=1", /another BYxxx/],
    ["FREQ=WEEKLY;FREQ=DAILY", /FREQ more than once/],
    ["FREQ=WEEKLY;byday=MO;BYDAY=TU", /BYDAY more than once/],
    ["FREQ=DAILY;COUNT=3;UNTIL=20270101T000000Z", /both COUNT and UNTIL/],
    ["FREQ=DAILY;UNTIL=20270101T000000Z;COUNT=3", /both COUNT and UNTIL/],
    ["FREQ=YEARLY;BYMONTH=0", /BYMONTH/],
    ["FREQ=YEARLY;BYMONTH=13", /BYMONTH/],
    ["FREQ=WEEKLY;WKST=XX", /WKST/],
    ["FREQ=WEEKLY;BYDAY=+1MO", /numbered .* only with FREQ=MONTHLY or YEARLY/],
    ["FREQ=DAILY;BYDAY=-1FR", /numbered/],
    ["FREQ=MONTHLY;BYDAY=6MO", /-5 to 5/],
    ["FREQ=YEARLY;BYWEEKNO=1;BYDAY=1MO", /BYWEEKNO/],
    ["FREQ=DAILY;UNTIL=20260230", /UNTIL/],
    ["FREQ=DAILY;UNTIL=19691231T000000Z", /UNTIL/],
    ["FREQ=DAILY;UNTIL=22010101", /UNTIL/],
    ["FREQ=DAILY;UNTIL=20260101T250000Z", /UNTIL/],
    ["FREQ=DAILY;UNTIL=tomorrow", /UNTIL/],
    ["FREQ=WEEKLY;BYMONTHDAY=1", /BYMONTHDAY/],
    ["FREQ=MONTHLY;BYMONTHDAY=32", /BYMONTHDAY/],
    ["FREQ=MONTHLY;BYYEARDAY=1", /BYYEARDAY needs FREQ=YEARLY/],
    ["FREQ=MONTHLY;BYWEEKNO=1", /BYWEEKNO needs FREQ=YEARLY/],
    ["FREQ=YEARLY;BYWEEKNO=54", /BYWEEKNO/],
    ["FREQ=DAILY;INTERVAL=0", /INTERVAL/],
    ["FREQ=DAILY;INTERVAL=366", /INTERVAL/],
    ["FREQ=DAILY;COUNT=0", /COUNT/],
    ["FREQ=DAILY;COUNT=801", /COUNT/],
    ["FREQ=HOURLY", /FREQ=DAILY, WEEKLY, MONTHLY or YEARLY/],
    ["BYDAY=MO", /FREQ=DAILY/],
    ["FREQ=DAILY;BYHOUR=9", /BYHOUR/],
    ["FREQ=DAILY;X-NAME=1", /not an RRULE part/],
    ["FREQ=DAILY;", /NAME=VALUE/],
    ["FREQ=DAILY;BYDAY=", /no value/],
    ["FREQ=WEEKLY;BYDAY=XX", /BYDAY/],
    ["DTSTART:20260101T000000Z\nRRULE:FREQ=DAILY", /DTSTART/],
    ["every monday", /NAME=VALUE/],
  ])("refuses %s", (text, message) => {
    expect(refusal(text)).toMatch(message);
  });
});
