import { describe, expect, it } from "vitest";
import { FLAGS_EXTENSION, takeDeclaredFlags } from "@/platform/routes/define-route";

const cursor = { in: "query", name: "cursor" };
const path = "/api/organizations/{organization_id}/roles";

describe("route flags against their operation", () => {
  it("answers the declared flags and takes them out of the served operation", () => {
    const operation = { [FLAGS_EXTENSION]: { scope: "organization" as const, list: true }, parameters: [cursor] };
    expect(takeDeclaredFlags("get", path, operation)).toEqual({ scope: "organization", list: true });
    expect(FLAGS_EXTENSION in operation).toBe(false);
  });

  it("refuses a declaration the operation contradicts", () => {
    const flags = (f: object) => ({ [FLAGS_EXTENSION]: { scope: "organization" as const, ...f } });
    expect(() => takeDeclaredFlags("get", path, {})).toThrow(/not defined with defineRoute/);
    expect(() => takeDeclaredFlags("get", path, { ...flags({ list: true }) })).toThrow(/lacks a cursor/);
    expect(() => takeDeclaredFlags("get", path, { ...flags({}), parameters: [cursor] })).toThrow(/takes a cursor/);
    expect(() => takeDeclaredFlags("get", "/api/timesheets", flags({}))).toThrow(/scope organization does not fit/);
    expect(() => takeDeclaredFlags("patch", path, flags({ idempotency: "middleware" }))).toThrow(/only a POST/);
  });
});
