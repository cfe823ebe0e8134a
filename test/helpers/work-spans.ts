import type { WorkSpan } from "@/domain/working-time/checks";

/** A worked shift from `start` to `end` (ISO instants, UTC), with its break blocks in minutes, as the checks read it. */
export const shiftSpan = (id: string, start: string, end: string, breakBlocks: number[] = []): WorkSpan => ({
  id,
  kind: "SHIFT",
  start: new Date(start),
  end: new Date(end),
  breakBlocks,
  utcOffset: 0,
});
