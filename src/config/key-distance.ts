/**
 * How close a typed key or name is to a known one: the optimal-string-alignment distance (insert, delete,
 * substitute, swap two neighbours), compared without case. Kept apart from the schema walk in
 * near-miss-keys.ts, so that model-name checks use it without loading the schema they are part of.
 */

const LONG_KEY_CHARS = 12;

/** Edits between `a` and `b` (adjacent swaps count once), stopping early once it exceeds `limit`. */
export function keyEditDistance(a: string, b: string, limit: number): number {
  if (Math.abs(a.length - b.length) > limit) return limit + 1;
  const rows: number[][] = [Array.from({ length: b.length + 1 }, (_, index) => index)];
  for (let i = 1; i <= a.length; i += 1) {
    const row = [i];
    for (let j = 1; j <= b.length; j += 1) {
      const cost = a[i - 1] === b[j - 1] ? 0 : 1;
      let value = Math.min(rows[i - 1]![j]! + 1, row[j - 1]! + 1, rows[i - 1]![j - 1]! + cost);
      if (i > 1 && j > 1 && a[i - 1] === b[j - 2] && a[i - 2] === b[j - 1]) value = Math.min(value, rows[i - 2]![j - 2]! + 1);
      row.push(value);
    }
    if (Math.min(...row) > limit) return limit + 1;
    rows.push(row);
  }
  return rows[a.length]![b.length]!;
}

/** The known key `typed` most likely meant, if it is that close to one. */
export function closestKnownKey(typed: string, known: Iterable<string>): string | undefined {
  let best: { key: string; distance: number } | undefined;
  for (const key of known) {
    const limit = typed.length >= LONG_KEY_CHARS && key.length >= LONG_KEY_CHARS ? 2 : 1;
    const distance = keyEditDistance(typed.toLowerCase(), key.toLowerCase(), limit);
    if (distance <= limit && (best === undefined || distance < best.distance)) best = { key, distance };
  }
  return best?.key;
}
