/**
 * Syntax of model references in the config file. A reference is `provider/model`; the model part may
 * itself contain slashes (`openrouter/anthropic/claude-sonnet-4-6`) and colons (`ollama/qwen3.5:27b`).
 * A bare word without a slash is accepted only as an alias declared in `agents.defaults.models`
 * (OpenClaw configs use aliases in `fallbacks`); that cross-check needs the whole config and lives in
 * cross-checks.ts.
 */

/** The readable message of every malformed model reference (R-CF-2 quotes it verbatim). */
export const MODEL_REF_MESSAGE = 'expected "provider/model"';

const PROVIDER_ID = /^[A-Za-z0-9][A-Za-z0-9._-]*$/;
const NO_WHITESPACE = /^\S+$/;

export function isProviderId(text: string): boolean {
  return PROVIDER_ID.test(text);
}

/** `provider/model` with a well-formed provider id and a non-empty model id. */
export function isProviderModelRef(text: string): boolean {
  const slash = text.indexOf("/");
  if (slash <= 0 || slash === text.length - 1) return false;
  return isProviderId(text.slice(0, slash)) && NO_WHITESPACE.test(text.slice(slash + 1));
}

/** A word that could name an alias: non-empty, no slash, no whitespace. */
export function isAliasWord(text: string): boolean {
  return text.length > 0 && !text.includes("/") && NO_WHITESPACE.test(text);
}
