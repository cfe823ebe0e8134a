import { describe, expect, it } from "vitest";
import { isJsonMediaType } from "@/platform/http/json-media-type";

describe("isJsonMediaType", () => {
  it.each([
    "application/json",
    "application/json; charset=utf-8",
    "Application/JSON;charset=UTF-8",
    'application/json; charset="utf-8"',
    "application/merge-patch+json",
    "application/vnd.api+json; charset=utf-8",
    "application/json;",
  ])("takes %s", (header) => {
    expect(isJsonMediaType(header)).toBe(true);
  });

  it.each([
    "application/json; charset=utf-16",
    "application/json; charset=utf-16le",
    "application/json; charset=iso-8859-1",
    "application/json; charset=utf-8; boundary=x",
    "application/json; version=2",
    "application/jsonx",
    "application/x-json",
    "application/+json",
    "text/json",
    "text/plain",
    "application/x-www-form-urlencoded",
    "multipart/form-data; boundary=x",
    "application/json, text/plain",
    "",
    null,
    undefined,
  ])("refuses %s", (header) => {
    expect(isJsonMediaType(header)).toBe(false);
  });
});
