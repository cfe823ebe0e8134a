import { describe, expect, it } from "vitest";
import { problems } from "@/platform/openapi/helpers";
import { codesOfStatus, PROBLEM_CODES } from "@/problems/codes";
import { notFound, ProblemError } from "@/problems/problem";

describe("the problem-code registry", () => {
  it("notFound(resource) answers the resource's registered 404 code", () => {
    expect(notFound("Staff member")).toMatchObject({ status: 404, code: "STAFF_MEMBER_NOT_FOUND" });
    expect(notFound("Break type").code).toBe("BREAK_TYPE_NOT_FOUND");
  });

  it("the compiler refuses a code or a resource the registry does not know", () => {
    // @ts-expect-error an unregistered code
    expect(new ProblemError(409, "NOT_A_CODE", "x").code).toBe("NOT_A_CODE");
    // @ts-expect-error an unregistered resource
    expect(() => notFound("Spaceship")).toThrow();
  });

  it("every code carries at least one status and a meaning", () => {
    for (const [code, entry] of Object.entries(PROBLEM_CODES)) {
      expect(entry.statuses.length, code).toBeGreaterThan(0);
      expect(entry.meaning.length, code).toBeGreaterThan(10);
    }
    expect(codesOfStatus(409)).toContain("DAY_LOCKED");
  });

  it("problems(...) takes codes and files each under its registered status", () => {
    const responses = problems("LOCATION_NOT_FOUND", "DAY_LOCKED", 413);
    expect(Object.keys(responses).sort()).toEqual(["400", "401", "403", "404", "409", "413"]);
    expect(responses[404]["x-problem-codes"]).toEqual(["LOCATION_NOT_FOUND"]);
    expect(responses[409]["x-problem-codes"]).toEqual(["DAY_LOCKED"]);
  });

  it("a status named without codes lists every route-level code the registry has for it", () => {
    expect(problems(409)[409]["x-problem-codes"]).toEqual(expect.arrayContaining(["DAY_LOCKED", "EXTERNAL_ID_TAKEN"]));
    expect(problems(409)[409]["x-problem-codes"]).not.toContain("IDEMPOTENCY_REQUEST_IN_PROGRESS");
  });
});
