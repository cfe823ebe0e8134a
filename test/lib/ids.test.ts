import { describe, expect, it } from "vitest";
import { newId } from "@/data/ids";

describe("newId", () => {
  it("makes RFC 9562 version 7 UUIDs", () => {
    expect(newId()).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-7[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/);
  });

  it("sorts in creation order, also within one millisecond", () => {
    const now = Date.now() + 10_000;
    const ids = Array.from({ length: 50 }, () => newId(now));
    expect([...ids].sort()).toEqual(ids);
    expect(new Set(ids).size).toBe(50);
  });
});
