/**
 * JSON for token records kept in jsonb (op records, undo logs): bigints become {"$big": "<decimal>"} so every
 * amount comes back exact, whatever its size.
 */
const BIG = '$big';

export function tokenJsonText(value: unknown): string {
  return JSON.stringify(value, (_, item: unknown) => (typeof item === 'bigint' ? { [BIG]: item.toString() } : item));
}

/** Reverses tokenJsonText on a parsed value (both backends hand jsonb back parsed; a string is parsed first). */
export function reviveTokenJson<T>(value: unknown): T {
  const revive = (item: unknown): unknown => {
    if (Array.isArray(item)) return item.map(revive);
    if (item !== null && typeof item === 'object') {
      const record = item as Record<string, unknown>;
      const keys = Object.keys(record);
      if (keys.length === 1 && keys[0] === BIG && typeof record[BIG] === 'string') return BigInt(record[BIG]);
      return Object.fromEntries(keys.map((key) => [key, revive(record[key])]));
    }
    return item;
  };
  return revive(typeof value === 'string' ? JSON.parse(value) : value) as T;
}
