import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { canonicalHash, canonicalJson, sha256Hex } from "@/domain/canonical-json";

describe("canonicalJson", () => {
  it("sorts keys at every depth and writes no whitespace", () => {
    expect(canonicalJson({ b: 1, a: { d: [3, { z: true, y: null }], c: "x" } })).toBe('{"a":{"c":"x","d":[3,{"y":null,"z":true}]},"b":1}');
  });

  it("gives the same text whatever order the fields were built in", () => {
    expect(canonicalJson({ grossPay: 10.5, employeeId: "e" })).toBe(canonicalJson({ employeeId: "e", grossPay: 10.5 }));
  });

  it("leaves undefined members out, writes dates as ISO strings and escapes strings as JSON does", () => {
    expect(canonicalJson({ a: undefined, at: new Date("2026-06-01T00:00:00Z"), s: 'q"\n' })).toBe(
      '{"at":"2026-06-01T00:00:00.000Z","s":"q\\"\\n"}',
    );
  });

  it("refuses non-finite numbers", () => {
    expect(() => canonicalJson({ a: Number.NaN })).toThrow(TypeError);
    expect(() => canonicalJson({ a: Number.NaN })).toThrow("canonical JSON has no non-finite numbers");
  });

  it("keeps a member named __proto__ as a member", () => {
    expect(canonicalJson(JSON.parse('{"b":1,"__proto__":{"x":2}}'))).toBe('{"__proto__":{"x":2},"b":1}');
  });
});

// A JS object orders keys like "9" by number, before every other key: such a value is written member by member.
describe("canonicalJson of a value with keys like array indexes", () => {
  it("sorts them as text among the other keys", () => {
    expect(canonicalJson({ "9": 1, "8a": 2 })).toBe('{"8a":2,"9":1}');
    expect(canonicalJson({ "12": 1, "1!": 2 })).toBe('{"1!":2,"12":1}');
  });

  it("writes arrays, dates, nested keys and undefined as the fast path does", () => {
    const value = { "1": [undefined, 2, new Date("2026-01-02T03:04:05Z")], b: undefined, a: { y: 1, x: "s" } };
    expect(canonicalJson(value)).toBe('{"1":[null,2,"2026-01-02T03:04:05.000Z"],"a":{"x":"s","y":1}}');
  });

  it("refuses non-finite numbers", () => {
    expect(() => canonicalJson({ "1": Number.POSITIVE_INFINITY })).toThrow("canonical JSON has no non-finite numbers");
  });
});

describe("sha256Hex", () => {
  it("hashes UTF-8 bytes to lowercase hex (the standard test vectors)", async () => {
    expect(await sha256Hex("")).toBe("e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855");
    expect(await sha256Hex("abc")).toBe("ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad");
  });

  it("the snapshot hash does not depend on key order", async () => {
    expect(await canonicalHash({ b: [1, 2], a: "é" })).toBe(await canonicalHash({ a: "é", b: [1, 2] }));
    expect(await canonicalHash({ a: 1 })).not.toBe(await canonicalHash({ a: 2 }));
  });
});

/** The definition, written member by member: what canonicalJson's faster path must equal. */
function reference(value: unknown): string {
  if (value === null || typeof value !== "object") return JSON.stringify(value);
  if (Array.isArray(value)) return `[${value.map((item) => (item === undefined ? "null" : reference(item))).join(",")}]`;
  const object = value as Record<string, unknown>;
  const keys = Object.keys(object)
    .sort()
    .filter((key) => object[key] !== undefined);
  return `{${keys.map((key) => `${JSON.stringify(key)}:${reference(object[key])}`).join(",")}}`;
}

describe("canonicalJson against its definition", () => {
  it("equals the member-by-member text for any JSON value, keys like array indexes included", () => {
    fc.assert(
      fc.property(fc.jsonValue(), (value) => {
        expect(canonicalJson(value)).toBe(reference(value));
      }),
      { numRuns: 500 },
    );
    const indexed = { b: { "10": 1, "9": 2, a: [{ "2": null, "1": true }] }, "0": "x" };
    expect(canonicalJson(indexed)).toBe(reference(indexed));
    expect(canonicalJson(indexed)).toBe('{"0":"x","b":{"10":1,"9":2,"a":[{"1":true,"2":null}]}}');
  });
});
