/**
 * Which feature serves a path: the feature of the longest mount prefix the path starts with. A prefix is a path
 * whose `*` segments match any one segment (`/api/organizations/* /locations/* /schedules`, without the spaces).
 */
export interface Mounts<F extends string> {
  featureOf(path: string): F | undefined;
}

export function mounts<F extends string>(table: readonly (readonly [prefix: string, feature: F])[]): Mounts<F> {
  const prefixes = table
    .map(([prefix, feature]) => ({ segments: prefix.split("/").filter(Boolean), feature }))
    .sort((a, b) => b.segments.length - a.segments.length);
  return {
    featureOf(path) {
      const segments = path.split("/").filter(Boolean);
      const found = prefixes.find(
        (prefix) => prefix.segments.length <= segments.length && prefix.segments.every((s, i) => s === "*" || s === segments[i]),
      );
      return found?.feature;
    },
  };
}
