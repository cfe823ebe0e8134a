/**
 * Which feature serves a path: the feature of the longest mount prefix the path starts with. A prefix is a path
 * whose `*` segments match any one segment (`/api/organizations/* /locations/* /schedules`, without the spaces).
 */
export interface Mounts<F extends string> {
  featureOf(path: string): F | undefined;
}

/** One segment of the prefixes: the feature of the prefix ending here, and the segments that may follow. */
interface Node<F> {
  feature?: F;
  /** Depth of this node: the prefix's length in segments. */
  depth: number;
  children: Map<string, Node<F>>;
  wildcard?: Node<F>;
}

/**
 * The prefixes as a tree of segments, walked once per request along the path's own segments (issue 36: every request
 * looks its feature up; the list of prefixes, each compared segment by segment, cost more than the app's dispatch).
 */
export function mounts<F extends string>(table: readonly (readonly [prefix: string, feature: F])[]): Mounts<F> {
  const root: Node<F> = { depth: 0, children: new Map() };
  for (const [prefix, feature] of table) {
    let node = root;
    for (const segment of prefix.split("/").filter(Boolean)) {
      const next = segment === "*" ? node.wildcard : node.children.get(segment);
      if (next) node = next;
      else {
        const added: Node<F> = { depth: node.depth + 1, children: new Map() };
        if (segment === "*") node.wildcard = added;
        else node.children.set(segment, added);
        node = added;
      }
    }
    node.feature = feature;
  }
  /** The deepest node with a feature reached from `node` along `segments` from `at`, exact segments and `*` alike. */
  const deepest = (node: Node<F>, segments: string[], at: number): Node<F> | undefined => {
    let best = node.feature === undefined ? undefined : node;
    let i = at;
    while (i < segments.length && segments[i] === "") i++;
    if (i === segments.length) return best;
    const exact = node.children.get(segments[i]!);
    const viaExact = exact && deepest(exact, segments, i + 1);
    if (viaExact && (!best || viaExact.depth > best.depth)) best = viaExact;
    const viaWildcard = node.wildcard && deepest(node.wildcard, segments, i + 1);
    if (viaWildcard && (!best || viaWildcard.depth > best.depth)) best = viaWildcard;
    return best;
  };
  return {
    featureOf: (path) => deepest(root, path.split("/"), 0)?.feature,
  };
}
