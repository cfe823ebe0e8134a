import type { Context, TypedResponse } from "hono";
import { jsonOnce } from "@/data/json-once";

const JSON_HEADERS = { "Content-Type": "application/json" };

/** `c.json(value, 200)` with the text `jsonOnce` already made of `value` (its event's data): serialized once. */
export const jsonAnswer = <T extends object>(c: Context, value: T) =>
  c.body(jsonOnce(value), 200, JSON_HEADERS) as unknown as Response & TypedResponse<T, 200, "json">;
