// A Map that forgets its least recently used keys beyond a size, for
// per-process memories that must not grow with every job ever seen.
export class BoundedMap<K, V> {
  private readonly entries = new Map<K, V>();

  constructor(private readonly max: number) {}

  /** The value for `key`, made by `make` when missing; either way `key` becomes the most recent. */
  getOrSet(key: K, make: () => V): V {
    const value = this.entries.has(key) ? this.entries.get(key)! : make();
    this.set(key, value);
    return value;
  }

  /** Sets `key` as the most recent; the least recent beyond the size is forgotten. */
  set(key: K, value: V): void {
    this.entries.delete(key);
    this.entries.set(key, value);
    if (this.entries.size > this.max) this.entries.delete(this.entries.keys().next().value!);
  }

  get(key: K): V | undefined {
    return this.entries.get(key);
  }

  delete(key: K): void {
    this.entries.delete(key);
  }

  get size(): number {
    return this.entries.size;
  }
}
