// docs/product.md §4 "Group permissions" (and the user's group selector): a screen edits a set by ticking boxes
// and saves only the difference, as additions and removals.

export type SelectionDiff<T> = { added: T[]; removed: T[] };

/** What to add and what to remove to turn `before` into `after`, each in the order given. */
export function diffSelection<T>(before: Iterable<T>, after: Iterable<T>): SelectionDiff<T> {
  const was = new Set(before);
  const now = new Set(after);
  return {
    added: [...now].filter((item) => !was.has(item)),
    removed: [...was].filter((item) => !now.has(item)),
  };
}

export function hasChanges<T>(diff: SelectionDiff<T>): boolean {
  return diff.added.length > 0 || diff.removed.length > 0;
}
