import type { Path } from './path.js';

interface Node {
  /** The path of the set that ends here, if one does. */
  path?: Path;
  readonly next: Map<string | number, Node>;
}

/**
 * A set of paths that answers "is one of them a prefix of this path?" in time proportional
 * to the path's length, however many paths the set holds. Filtering n paths against m
 * prefixes is then O(n + m) (times path length), where comparing every pair is O(n·m): the
 * stash's `generated` list against its entries was such a pair loop.
 */
export class PathPrefixes {
  readonly #root: Node = { next: new Map() };

  constructor(paths: Iterable<Path> = []) {
    for (const path of paths) this.add(path);
  }

  /**
   * Adds `path`. Returns a path already in the set that equals it, is a prefix of it or lies
   * under it (the first met), if there is one: the set then holds both.
   */
  add(path: Path): Path | undefined {
    let node = this.#root;
    let overlap: Path | undefined;
    for (const segment of path) {
      overlap ??= node.path;
      let child = node.next.get(segment);
      if (child === undefined) {
        child = { next: new Map() };
        node.next.set(segment, child);
      }
      node = child;
    }
    overlap ??= node.path ?? (node.next.size > 0 ? firstPathUnder(node) : undefined);
    node.path ??= path;
    return overlap;
  }

  /** Whether some path of the set is a prefix of `path` (or equals it). */
  coversPath(path: Path): boolean {
    let node: Node | undefined = this.#root;
    if (node.path !== undefined) return true;
    for (const segment of path) {
      node = node.next.get(segment);
      if (node === undefined) return false;
      if (node.path !== undefined) return true;
    }
    return false;
  }
}

// (every node without a path of its own has a child: nodes are made only along added paths)
function firstPathUnder(node: Node): Path {
  let at = node;
  while (at.path === undefined) at = at.next.values().next().value!;
  return at.path;
}
