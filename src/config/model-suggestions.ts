/**
 * "Did you mean" for a model name nobody offers: the offered names closest to what was typed, so a typo
 * (`gpt-4o-mni`) is answered with the name it most likely meant instead of a list of every provider.
 */

const DATE_OR_LATEST = "(?:\\d{4}-?\\d{2}-?\\d{2}|\\d{8}|latest)";
/** Dated snapshots and `-latest` compare as their undated family name. */
const DATED_SUFFIX = new RegExp(`-${DATE_OR_LATEST}$`);
/** Exactly a snapshot tail: what a dated id adds to its family name (`-20250514`, `-2024-08-06`, `-latest`). */
export const DATED_TAIL = new RegExp(`^-${DATE_OR_LATEST}$`);

function undated(name: string): string {
  return name.replace(DATED_SUFFIX, "");
}

/** Edit distance (insert, delete, substitute), stopping early once it exceeds `limit`. */
function editDistance(a: string, b: string, limit: number): number {
  if (Math.abs(a.length - b.length) > limit) return limit + 1;
  let previous = Array.from({ length: b.length + 1 }, (_, index) => index);
  for (let i = 1; i <= a.length; i += 1) {
    const current = [i];
    let rowMin = i;
    for (let j = 1; j <= b.length; j += 1) {
      const cost = a[i - 1] === b[j - 1] ? 0 : 1;
      const value = Math.min(previous[j]! + 1, current[j - 1]! + 1, previous[j - 1]! + cost);
      current.push(value);
      rowMin = Math.min(rowMin, value);
    }
    if (rowMin > limit) return limit + 1;
    previous = current;
  }
  return previous[b.length]!;
}

/**
 * Up to `max` of `offered` (`provider/model`) whose model is within a couple of edits of `name`, closest
 * first, as `provider/<undated name>`. Short names get fewer edits: `o3` must not suggest `o1`.
 */
export function nearModelRefs(name: string, offered: readonly string[], max = 3): string[] {
  const typed = undated(name.toLowerCase());
  const limit = typed.length <= 4 ? 0 : typed.length <= 8 ? 1 : 2;
  const scored = new Map<string, number>();
  for (const ref of offered) {
    const slash = ref.indexOf("/");
    const family = undated(ref.slice(slash + 1));
    const distance = editDistance(typed, family.toLowerCase(), limit);
    if (distance > limit) continue;
    // Suggested as the family name: it finds the dated snapshots too, and reads as what was meant.
    const suggestion = `${ref.slice(0, slash)}/${family}`;
    const previous = scored.get(suggestion);
    if (previous === undefined || distance < previous) scored.set(suggestion, distance);
  }
  return [...scored.entries()]
    .sort((a, b) => a[1] - b[1] || a[0].localeCompare(b[0]))
    .slice(0, max)
    .map(([ref]) => ref);
}
