/**
 * `.` or `..`, or either written with `%2e`: URL parsers resolve such a path segment away (`…/locations/..` becomes
 * `…/`), so an id of that form would send a client's request to another resource. Apart from ./validation so that the
 * path parameters' helpers (src/platform/openapi/helpers.ts, evaluated at isolate startup) do not evaluate every
 * shared schema with it (issue 45 item 7).
 */
export const isDotSegment = (text: string) => /^(?:\.|%2e){1,2}$/i.test(text);

export const DOT_SEGMENT_MESSAGE = "must not be '.' or '..' (or either percent-encoded): URL parsers resolve it away";
