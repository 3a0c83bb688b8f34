import type { Path } from './path.js';

interface Node {
  /** A path of the set ends here. */
  end: boolean;
  readonly next: Map<string | number, Node>;
}

/**
 * A set of paths that answers "is one of them a prefix of this path?" in time proportional
 * to the path's length, however many paths the set holds. Filtering n paths against m
 * prefixes is then O(n + m) (times path length), where comparing every pair is O(n·m): the
 * stash's `generated` list against its entries was such a pair loop.
 */
export class PathPrefixes {
  readonly #root: Node = { end: false, next: new Map() };

  constructor(paths: Iterable<Path>) {
    for (const path of paths) {
      let node = this.#root;
      for (const segment of path) {
        let child = node.next.get(segment);
        if (child === undefined) {
          child = { end: false, next: new Map() };
          node.next.set(segment, child);
        }
        node = child;
      }
      node.end = true;
    }
  }

  /** Whether some path of the set is a prefix of `path` (or equals it). */
  coversPath(path: Path): boolean {
    let node: Node | undefined = this.#root;
    if (node.end) return true;
    for (const segment of path) {
      node = node.next.get(segment);
      if (node === undefined) return false;
      if (node.end) return true;
    }
    return false;
  }
}
