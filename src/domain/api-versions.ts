/**
 * Dated API versions. A partner is pinned to the version current at its first token exchange; a request's
 * `Shiftline-Version: YYYY-MM-DD` header overrides it (a date between versions means the latest version on or
 * before it); a webhook endpoint delivers in the version it was created with. Each version lists what it changed;
 * the code that differs by version reads these changes, never a date of its own.
 */
export interface ApiVersion {
  version: string;
  changes: readonly string[];
}

export const API_VERSIONS: readonly ApiVersion[] = [
  {
    version: "2026-01-01",
    changes: ["The first dated version: the API as it was before versions were dated."],
  },
  {
    version: "2026-12-06",
    changes: [
      "`schedule.published` carries the publish's Fair Workweek changes in total (`changes`, `premiumHours`, " +
        "`premiumAmount`); the separate `schedule_changes.recorded` event is no longer sent. Earlier versions " +
        "receive `schedule.published` without those fields and, when the publish recorded changes, a " +
        "`schedule_changes.recorded` event right after it (id `<publish event id>.changes`, the same sequence).",
    ],
  },
];

export const LATEST_API_VERSION = API_VERSIONS.at(-1)!.version;
export const FIRST_API_VERSION = API_VERSIONS[0]!.version;

/** The version that changed the publish's summary into `schedule.published`. */
export const PUBLISH_SUMMARY_IN_EVENT = "2026-12-06";

const DATE = /^\d{4}-(0[1-9]|1[0-2])-(0[1-9]|[12]\d|3[01])$/;

/** The version a `Shiftline-Version` date asks for: the latest on or before it; null for no date or one before the first. */
export function resolveApiVersion(date: string): string | null {
  if (!DATE.test(date) || Number.isNaN(Date.parse(`${date}T00:00:00Z`))) return null;
  let found: string | null = null;
  for (const { version } of API_VERSIONS) if (version <= date) found = version;
  return found;
}

/** An event as the feed and webhooks carry it (the fields this module reads). */
export interface VersionedEvent {
  id: string;
  type: string;
  data: unknown;
}

interface PublishSummary {
  changes?: unknown;
  premiumHours?: unknown;
  premiumAmount?: unknown;
  [field: string]: unknown;
}

/**
 * The events `event` is in `version`: itself at the latest; before the publish summary moved into
 * `schedule.published`, that event without the summary and, when it recorded changes, the removed
 * `schedule_changes.recorded` carrying them (its id the publish's + ".changes").
 */
export function eventsInVersion<E extends VersionedEvent>(event: E, version: string): E[] {
  if (event.type !== "schedule.published" || version >= PUBLISH_SUMMARY_IN_EVENT) return [event];
  const { changes, premiumHours, premiumAmount, ...published } = event.data as PublishSummary;
  const old = { ...event, data: published };
  if (typeof changes !== "number" || changes === 0) return [old];
  return [
    old,
    {
      ...event,
      id: `${event.id}.changes`,
      type: "schedule_changes.recorded",
      data: { ...published, changes, premiumHours, premiumAmount },
    },
  ];
}

/**
 * The stored types a filter of `types` reads in `version`: before the move, `schedule_changes.recorded` comes from
 * `schedule.published` events.
 */
export function storedTypesOf(types: readonly string[], version: string): string[] {
  if (version >= PUBLISH_SUMMARY_IN_EVENT || !types.includes("schedule_changes.recorded")) return [...types];
  return [...new Set([...types, "schedule.published"])];
}
