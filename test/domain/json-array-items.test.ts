import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { canonicalAround, canonicalJson } from "@/domain/canonical-json";
import { JsonArrayItems, jsonArrayItems } from "@/domain/json-array-items";

/** The text cut at the given offsets. */
const pieces = (text: string, cuts: number[]) => {
  const at = [...new Set(cuts.map((c) => c % (text.length + 1)))].sort((a, b) => a - b);
  return [0, ...at].map((from, i) => text.slice(from, at[i] ?? text.length));
};

const items = (text: string, name: string, cuts: number[] = []) => {
  const reader = new JsonArrayItems(name);
  return pieces(text, cuts).flatMap((piece) => reader.push(piece));
};

const value = fc.jsonValue({ maxDepth: 3 });
const objects = fc.array(fc.dictionary(fc.string(), value, { maxKeys: 4 }), { maxLength: 6 });

describe("JsonArrayItems", () => {
  it.each([
    ['{"employees":[{"a":1},{"b":[2,{"c":"}"}]}]}', "employees", ['{"a":1}', '{"b":[2,{"c":"}"}]}']],
    ['{"adjustments":[{"employeeId":"x"}],"employees":[{"e":"\\"]"}],"totals":{"a":[]}}', "employees", ['{"e":"\\"]"}']],
    ['{"snapshotHash":"employees","employees":[]}', "employees", []],
    ['{"x":{"employees":[{"inner":1}]},"employees":[{"outer":1}]}', "employees", ['{"outer":1}']],
    ['{"employees":[{"a":1}]}', "other", []],
  ])("%s → the items of %s", (text, name, expected) => {
    expect(items(text, name)).toEqual(expected);
  });

  it("answers each item of the named member whatever the cuts of the text and the members around it", () => {
    fc.assert(
      fc.property(
        objects,
        fc.dictionary(fc.string(), value, { maxKeys: 4 }),
        fc.array(fc.nat(), { maxLength: 8 }),
        (list, around, cuts) => {
          const text = JSON.stringify({ ...around, employees: list });
          expect(items(text, "employees", cuts)).toEqual(list.map((item) => JSON.stringify(item)));
        },
      ),
    );
  });

  it("reads a UTF-8 stream cut inside characters", async () => {
    const list = [{ name: "Ünal 😀" }, { name: "Zoë" }];
    const bytes = new TextEncoder().encode(JSON.stringify({ employees: list }));
    const stream = new ReadableStream<Uint8Array>({
      start(controller) {
        for (let i = 0; i < bytes.length; i += 3) controller.enqueue(bytes.subarray(i, i + 3));
        controller.close();
      },
    });
    const read: unknown[] = [];
    for await (const item of jsonArrayItems(stream, "employees")) read.push(JSON.parse(item));
    expect(read).toEqual(list);
  });
});

describe("canonicalAround", () => {
  it("is the canonical JSON before and after one member's value", () => {
    fc.assert(
      fc.property(fc.dictionary(fc.string(), value, { minKeys: 1, maxKeys: 6 }), fc.nat(), (object, pick) => {
        const keys = Object.keys(object);
        const key = keys[pick % keys.length]!;
        const [before, after] = canonicalAround(object, key);
        expect(before + canonicalJson(object[key]) + after).toBe(canonicalJson(object));
      }),
    );
  });

  it("writes the member where its key sorts, the others as canonicalJson does", () => {
    expect(canonicalAround({ b: 1, employees: null, a: [2], z: undefined }, "employees")).toEqual(['{"a":[2],"b":1,"employees":', "}"]);
    expect(canonicalAround({ totals: { y: 1, x: 2 }, employees: 0 }, "employees")).toEqual(['{"employees":', ',"totals":{"x":2,"y":1}}']);
  });
});
