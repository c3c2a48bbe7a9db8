/**
 * Text shaping shared by the user-facing one-liners (notices, summary messages): upstream error texts
 * arrive with newlines, tabs and stray control characters, and these lines end up in headers and logs.
 */

/** Collapses every run of whitespace and control characters to one space and trims. */
export function singleLine(text: string): string {
  return text.replace(/[\s\p{Cc}]+/gu, " ").trim();
}

/**
 * Cuts to at most `max` characters, the last one being `…`. Counts code points, so an emoji or other
 * astral character is never split into a lone surrogate.
 */
export function truncateWithEllipsis(text: string, max: number): string {
  const chars = Array.from(text);
  if (chars.length <= max) return text;
  return `${chars
    .slice(0, Math.max(0, max - 1))
    .join("")
    .trimEnd()}…`;
}
