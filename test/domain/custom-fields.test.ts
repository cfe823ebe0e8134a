import { describe, expect, it } from "vitest";
import {
  type CustomFieldRule,
  exportedFields,
  givenValueErrors,
  MAX_VALUE_LENGTH,
  mergedValues,
  missingRequired,
  optionsRefusal,
  patternRefusal,
  valueRefusal,
} from "@/domain/custom-fields";

const text = (pattern: string | null, extra: Partial<CustomFieldRule> = {}): CustomFieldRule => ({
  id: "t",
  type: "TEXT",
  options: null,
  pattern,
  required: false,
  active: true,
  ...extra,
});
const list = (options: string[], extra: Partial<CustomFieldRule> = {}): CustomFieldRule => ({
  id: "l",
  type: "LIST",
  options,
  pattern: null,
  required: false,
  active: true,
  ...extra,
});

describe("patternRefusal", () => {
  it.each([
    ["[A-Z]{2}-\\d{4}", null],
    ["\\p{L}+", null],
    ["(?<code>[A-Z]{3})-\\d+", null],
    ["(?P<code>[A-Z]{3})-\\d+", null],
    ["(\\d{3}-)+\\d{4}", null],
    ["(a|b)", null],
    ["[(+*]+", null], // quantifier characters inside a class are literals
    ["\\-", null], // RE2 escapes any punctuation
    ["\\x{1F600}", null],
    ["x".repeat(200), null], // exactly MAX_PATTERN_LENGTH
    [".{0,500}", null], // 1,002 instructions
    ["(?:.?){599}", null], // 1,200 instructions: exactly MAX_PATTERN_PROGRAM_SIZE
  ])("accepts %s", async (pattern, refusal) => {
    expect(await patternRefusal(pattern)).toBe(refusal);
  });

  it.each([
    ["(", "not an RE2 regular expression"],
    ["a{2,1}", "not an RE2 regular expression"],
    ["x".repeat(201), "200 characters"], // one over MAX_PATTERN_LENGTH
    ["(?=a)a", "not an RE2 regular expression"], // lookahead
    ["(?!b)a", "not an RE2 regular expression"],
    ["(?<=a)b", "not an RE2 regular expression"], // lookbehind
    ["(?<!a)b", "not an RE2 regular expression"],
    ["(a)\\1", "not an RE2 regular expression"], // back-reference
    ["(?<n>a)\\k<n>", "not an RE2 regular expression"],
    ["\\u00e9", "not an RE2 regular expression"], // RE2 writes it \\x{e9}
    ["a{1001}", "not an RE2 regular expression"], // RE2's repeat counts stop at 1000
    ["(?:.?){600}", "compiles to 1202 instructions, at most 1200"], // one repeat over MAX_PATTERN_PROGRAM_SIZE
  ])("refuses %s", async (pattern, reason) => {
    expect(await patternRefusal(pattern)).toContain(reason);
  });

  // Patterns that backtrack catastrophically in an ECMAScript engine (issue 44: `(.*a){12}` on 500 characters never
  // answered). Each is refused, or accepted and answers at once with the right verdict on 500-character values.
  const as = "a".repeat(500);
  const asThenBang = `${"a".repeat(499)}!`;
  it.each([
    // pattern, why refused (or null), matches 500 × a, matches 499 × a then !
    ["(.*a){12}", null, true, false],
    ["(.*a){20}", null, true, false],
    ["(.*a){20}b", null, false, false],
    ["a*a*a*a*a*a*b", null, false, false],
    ["a*a*a*a*a*a*a*a*a*a*a*a*!", null, false, true],
    ["(a+)+b", null, false, false],
    ["(a+)+", null, true, false],
    ["(a*)*b", null, false, false],
    ["(a|aa)+b", null, false, false],
    ["(a|a)*b", null, false, false],
    ["((a)+b)*", null, false, false],
    ["(a{1,3}){2,}", null, true, false],
    ["(\\w+\\s?)*$", null, true, false],
    ["(.*){1,1000}b", "too large", false, false],
    ["(.*a){1,100}", null, true, false],
    [".*.*.*.*.*.*.*.*=", null, false, false],
    ["(\\p{L}+)*\\d", null, false, false],
    ["(?i)(A+)+\\p{Lu}", null, true, false],
    ["(?=(a+))*b", "not an RE2 regular expression", false, false],
    ["(?=(a+))a*b", "not an RE2 regular expression", false, false],
    ["(?=a*)(a+)+b", "not an RE2 regular expression", false, false],
    ["(?!a+b)(a+)+", "not an RE2 regular expression", false, false],
    ["(?<=a+)b", "not an RE2 regular expression", false, false],
    ["(a+)\\1+b", "not an RE2 regular expression", false, false],
  ] as const)(
    "%s: refused (%s), or 500 characters answer %s / %s",
    { timeout: 10_000 }, // a hang guard, not a speed target
    async (pattern, refused, onAs, onBang) => {
      const refusal = await patternRefusal(pattern);
      if (refused !== null) {
        expect(refusal).toContain(refused);
        return;
      }
      expect(refusal).toBeNull();
      expect(await valueRefusal(text(pattern), as)).toBe(onAs ? null : "does not match the field's pattern");
      expect(await valueRefusal(text(pattern), asThenBang)).toBe(onBang ? null : "does not match the field's pattern");
    },
  );
});

describe("optionsRefusal", () => {
  it.each([
    [["a"], null],
    [Array.from({ length: 100 }, (_, i) => `o${i}`), null],
    [[], "1 to 100"],
    [Array.from({ length: 101 }, (_, i) => `o${i}`), "1 to 100"],
    [["a", ""], "1 to 500"],
    [["x".repeat(500)], null],
    [["a", "x".repeat(501)], "1 to 500"],
    [["a", "a"], "distinct"],
  ])("%j → %s", (options, reason) => {
    const refusal = optionsRefusal(options);
    if (reason === null) expect(refusal).toBeNull();
    else expect(refusal).toContain(reason);
  });
});

describe("valueRefusal", () => {
  it.each([
    [text("[A-Z]{2}-\\d{4}"), "AB-1234", null],
    [text("[A-Z]{2}-\\d{4}"), "xAB-1234", "pattern"], // the whole value must match
    [text("[A-Z]{2}-\\d{4}"), "AB-12345", "pattern"],
    [text("a|b"), "ab", "pattern"], // the alternatives are anchored together
    [text("a|ab"), "ab", null], // the whole value, not the first alternative that matches a prefix
    [text("."), "😀", null], // one code point, not two UTF-16 units
    [text(".."), "😀", "pattern"],
    [text("\\p{L}+"), "Émilie", null],
    [text("\\w+"), "Émilie", "pattern"], // \\w is ASCII, as in ECMAScript
    [text("(?i)émilie"), "ÉMILIE", null],
    [text("a.b"), "a\nb", "pattern"], // . is no line break
    [text("(?=a)a"), "a", "no longer accepted"], // a pattern stored before RE2 refuses values until replaced
    [text(null), "anything at all", null],
    [text(null), "x".repeat(MAX_VALUE_LENGTH), null],
    [text(null), "x".repeat(MAX_VALUE_LENGTH + 1), "1 to 500"],
    [text(null), "", "1 to 500"],
    [list(["red", "blue"]), "blue", null],
    [list(["red", "blue"]), "Blue", "options"],
    [{ ...list([]), options: null }, "red", "options"], // a LIST field stored without options accepts nothing
  ] as const)("%j, %s → %s", async (field, value, reason) => {
    const refusal = await valueRefusal(field, value);
    if (reason === null) expect(refusal).toBeNull();
    else expect(refusal).toContain(reason);
  });
});

describe("givenValueErrors", () => {
  const fields = [text("\\d+", { id: "num" }), list(["a"], { id: "pick" }), text(null, { id: "old", active: false })];

  it("names each offending field under customFields", async () => {
    expect(await givenValueErrors(fields, { num: "12", pick: "b", old: "x", nope: "y" })).toEqual([
      { path: "customFields.pick", message: expect.stringContaining("options") },
      { path: "customFields.old", message: "the custom field is not active" },
      { path: "customFields.nope", message: "no custom field with that id in this organization" },
    ]);
  });

  it("accepts a removal (null) for any id", async () => {
    expect(await givenValueErrors(fields, { old: null, nope: null })).toEqual([]);
  });
});

describe("mergedValues and missingRequired", () => {
  it("sets given values over stored ones and removes the null ones", () => {
    expect(mergedValues({ a: "1", b: "2" }, { b: "3", a: null, c: "4" })).toEqual({ b: "3", c: "4" });
    expect(mergedValues({ a: "1" })).toEqual({ a: "1" });
  });

  it("names the active required fields left empty, not inactive or optional ones", () => {
    const fields = [
      text(null, { id: "r1", required: true }),
      text(null, { id: "r2", required: true }),
      text(null, { id: "off", required: true, active: false }),
      text(null, { id: "opt" }),
    ];
    expect(missingRequired(fields, { r2: "x" })).toEqual([{ path: "customFields.r1", message: "required" }]);
    expect(missingRequired(fields, { r1: "x", r2: "y" })).toEqual([]);
  });
});

describe("exportedFields", () => {
  it("keeps the active fields, by name then id", () => {
    const fields = [
      { id: "3", name: "b", active: true },
      { id: "2", name: "a", active: true },
      { id: "1", name: "b", active: true },
      { id: "0", name: "a", active: false },
    ];
    expect(exportedFields(fields).map((f) => f.id)).toEqual(["2", "1", "3"]);
  });

  it("gives the same order whatever order the fields come in", () => {
    const fields = [
      { id: "9", name: "a", active: true },
      { id: "1", name: "b", active: true },
      { id: "2", name: "b", active: true },
      { id: "0", name: "c", active: true },
    ];
    const orders = (rest: typeof fields): (typeof fields)[] =>
      rest.length <= 1 ? [rest] : rest.flatMap((f, i) => orders([...rest.slice(0, i), ...rest.slice(i + 1)]).map((o) => [f, ...o]));
    for (const order of orders(fields)) expect(exportedFields(order).map((f) => f.id)).toEqual(["9", "1", "2", "0"]);
  });
});
