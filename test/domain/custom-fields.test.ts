import { describe, expect, it } from "vitest";
import {
  type CustomFieldRule,
  exportedFields,
  givenValueErrors,
  MAX_VALUE_LENGTH,
  mayBacktrackCatastrophically,
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
    ["(\\d{3}-)+\\d{4}", null], // an exact count inside a repeated group
    ["(ab)+", null],
    ["(a|b)", null], // an alternative in a group that is not repeated
    ["[(+*]+", null], // quantifier characters inside a class are literals
  ])("accepts %s", (pattern, refusal) => {
    expect(patternRefusal(pattern)).toBe(refusal);
  });

  it.each([
    ["(", "valid regular expression"],
    ["a{2,1}", "valid regular expression"],
    ["\\-", "valid regular expression"], // not under the u flag
    ["x".repeat(201), "200 characters"],
    ["(a+)+", "backtrack"],
    ["(a*)*b", "backtrack"],
    ["(a|aa)+", "backtrack"],
    ["((a)+b)*", "backtrack"],
    ["(?:x+y?)+", "backtrack"],
    ["(a{1,3}){2,}", "backtrack"],
    ["(a)\\1", "backtrack"],
    ["(?<n>a)\\k<n>", "backtrack"],
  ])("refuses %s", (pattern, reason) => {
    expect(patternRefusal(pattern)).toContain(reason);
  });

  it("reads escapes and classes, not their characters", () => {
    expect(mayBacktrackCatastrophically("(\\+)+")).toBe(false);
    expect(mayBacktrackCatastrophically("(\\p{Lu})+")).toBe(false);
    expect(mayBacktrackCatastrophically("([|*])+")).toBe(false);
    expect(mayBacktrackCatastrophically("(\\\\1)")).toBe(false); // an escaped backslash, then 1
  });
});

describe("optionsRefusal", () => {
  it.each([
    [["a"], null],
    [Array.from({ length: 100 }, (_, i) => `o${i}`), null],
    [[], "1 to 100"],
    [Array.from({ length: 101 }, (_, i) => `o${i}`), "1 to 100"],
    [["a", ""], "1 to 500"],
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
    [text(null), "anything at all", null],
    [text(null), "x".repeat(MAX_VALUE_LENGTH), null],
    [text(null), "x".repeat(MAX_VALUE_LENGTH + 1), "1 to 500"],
    [text(null), "", "1 to 500"],
    [list(["red", "blue"]), "blue", null],
    [list(["red", "blue"]), "Blue", "options"],
  ] as const)("%j, %s → %s", (field, value, reason) => {
    const refusal = valueRefusal(field, value);
    if (reason === null) expect(refusal).toBeNull();
    else expect(refusal).toContain(reason);
  });
});

describe("givenValueErrors", () => {
  const fields = [text("\\d+", { id: "num" }), list(["a"], { id: "pick" }), text(null, { id: "old", active: false })];

  it("names each offending field under customFields", () => {
    expect(givenValueErrors(fields, { num: "12", pick: "b", old: "x", nope: "y" })).toEqual([
      { path: "customFields.pick", message: expect.stringContaining("options") },
      { path: "customFields.old", message: "the custom field is not active" },
      { path: "customFields.nope", message: "no custom field with that id in this organization" },
    ]);
  });

  it("accepts a removal (null) for any id", () => {
    expect(givenValueErrors(fields, { old: null, nope: null })).toEqual([]);
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
});
