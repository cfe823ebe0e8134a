import { describe, expect, it } from "vitest";
import { newId } from "@/data/ids";

describe("newId", () => {
  it("makes RFC 9562 version 7 UUIDs", () => {
    expect(newId()).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-7[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/);
  });

  it("starts with its millisecond, 48 bits big-endian, then the version and the counter", () => {
    const now = Date.now() + 365 * 86_400_000; // later than any id made before in this isolate
    const id = newId(now);
    expect(id.replaceAll("-", "").slice(0, 12)).toBe(now.toString(16).padStart(12, "0"));
    expect(id.split("-").map((part) => part.length)).toEqual([8, 4, 4, 4, 12]);
  });

  it("sorts in creation order, also within one millisecond", () => {
    const now = Date.now() + 10_000;
    const ids = Array.from({ length: 50 }, () => newId(now));
    expect([...ids].sort()).toEqual(ids);
    expect(new Set(ids).size).toBe(50);
  });
});
