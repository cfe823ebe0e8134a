import { expect } from "vitest";
import { api } from "./api";

/**
 * Every page of a list, following `Link: <…>; rel="next"` from `path` until none is answered; each page holds at
 * most `limit` items (the path's own `limit`). Returns the pages' bodies in order.
 */
export async function allPages<T = any>(path: string, token: string, limit: number): Promise<T[][]> {
  const pages: T[][] = [];
  let next: string | null = path;
  while (next !== null) {
    const res = await api("GET", next, { token });
    expect(res.status, `${next}: ${res.text.slice(0, 300)}`).toBe(200);
    expect((res.body as T[]).length).toBeLessThanOrEqual(limit);
    pages.push(res.body as T[]);
    next = /^<([^>]+)>; rel="next"$/.exec(res.headers.get("Link") ?? "")?.[1] ?? null;
    expect(pages.length, "too many pages").toBeLessThan(100);
  }
  return pages;
}
