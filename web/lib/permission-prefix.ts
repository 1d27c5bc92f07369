// docs/product.md §2 "Permission Management": permissions are grouped by the key prefix before the first dot.

/** 'users.assign' → 'users'; a key without a dot is its own prefix. */
export function permissionPrefix(key: string): string {
  const dot = key.indexOf(".");
  return dot === -1 ? key : key.slice(0, dot);
}

export type PrefixGroup<T> = { prefix: string; items: T[] };

/** Groups sorted by prefix, each keeping the order of the list it came from. */
export function groupByPrefix<T extends { key: string }>(items: readonly T[]): PrefixGroup<T>[] {
  const groups = new Map<string, T[]>();
  for (const item of items) {
    const prefix = permissionPrefix(item.key);
    const group = groups.get(prefix);
    if (group) group.push(item);
    else groups.set(prefix, [item]);
  }
  return [...groups.entries()].sort(([a], [b]) => a.localeCompare(b)).map(([prefix, grouped]) => ({ prefix, items: grouped }));
}
