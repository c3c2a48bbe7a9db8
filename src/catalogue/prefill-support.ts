/**
 * Which catalogue models continue a trailing assistant message (a prefill, R-ST-4). The models.dev data
 * does not say, so the catalogue keeps it here by model family: Claude models before 4.6 continue a
 * prefill; Claude models from 4.6 on answer it with 400, so they get the instructed form from the start.
 * Models not listed are unknown (undefined): no API is assumed to take a prefill.
 */

/** A Claude generation in any provider's spelling: `claude-sonnet-4-6`, `anthropic.claude-opus-4-6-v1:0`,
 * `anthropic/claude-sonnet-4.6`, `claude-sonnet-4-6@20260101`, and the older `claude-3-5-sonnet-20241022`. */
const CLAUDE_NEW_NAMING = /\bclaude-(?:opus|sonnet|haiku)-(\d{1,2})(?:[-.](\d{1,2}))?(?!\d)/i;
const CLAUDE_OLD_NAMING = /\bclaude-(\d{1,2})(?:[-.](\d{1,2}))?-(?:opus|sonnet|haiku|instant)\b/i;

/** The first Claude version that rejects a prefill. */
const FIRST_WITHOUT_PREFILL = { major: 4, minor: 6 } as const;

export function catalogueSupportsPrefill(model: string): boolean | undefined {
  const match = CLAUDE_NEW_NAMING.exec(model) ?? CLAUDE_OLD_NAMING.exec(model);
  if (!match) return undefined;
  const major = Number(match[1]);
  const minor = match[2] === undefined ? 0 : Number(match[2]);
  const rejects = major > FIRST_WITHOUT_PREFILL.major || (major === FIRST_WITHOUT_PREFILL.major && minor >= FIRST_WITHOUT_PREFILL.minor);
  return !rejects;
}
