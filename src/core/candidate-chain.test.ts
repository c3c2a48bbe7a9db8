import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { buildCandidateChain, dedupeModelRefs, formatModelRef, parseModelRef, resolveModelRef } from "./candidate-chain.js";
import { ModelSelectionError } from "./errors.js";
import type { ModelRef } from "./types.js";

const refs = (chain: readonly ModelRef[]) => chain.map(formatModelRef);

describe("parseModelRef / formatModelRef", () => {
  it.each([
    ["anthropic/claude-sonnet-4-6", undefined, { provider: "anthropic", model: "claude-sonnet-4-6" }],
    ["  OpenAI/gpt-4o  ", undefined, { provider: "openai", model: "gpt-4o" }],
    ["openrouter/meta-llama/llama-3.3-70b", undefined, { provider: "openrouter", model: "meta-llama/llama-3.3-70b" }],
    ["ollama/qwen3.5:27b", undefined, { provider: "ollama", model: "qwen3.5:27b" }],
    ["gpt-4o", "openai", { provider: "openai", model: "gpt-4o" }],
    ["gpt-4o", undefined, undefined],
    ["", "openai", undefined],
    ["   ", undefined, undefined],
    ["/gpt-4o", undefined, undefined],
    ["openai/", undefined, undefined],
  ])("parses %j (default provider %j)", (text, defaultProvider, expected) => {
    expect(parseModelRef(text, defaultProvider)).toEqual(expected);
  });

  it("formats provider/model and round-trips models that contain slashes", () => {
    const ref = { provider: "openrouter", model: "meta-llama/llama-3.3-70b" };
    expect(formatModelRef(ref)).toBe("openrouter/meta-llama/llama-3.3-70b");
    expect(parseModelRef(formatModelRef(ref))).toEqual(ref);
  });

  it("round-trips every well-formed ref (property)", () => {
    const part = fc.stringMatching(/^[a-z0-9][a-z0-9.:_-]{0,20}$/);
    fc.assert(
      fc.property(part, fc.array(part, { minLength: 1, maxLength: 3 }), (provider, segments) => {
        const ref = { provider, model: segments.join("/") };
        expect(parseModelRef(formatModelRef(ref))).toEqual(ref);
      }),
    );
  });
});

describe("resolveModelRef", () => {
  const aliases = { sonnet: "anthropic/claude-sonnet-4-6", "My/Alias": "openai/gpt-4o" };

  it("R-CH-1: aliases resolve first, case-insensitively, even when the alias looks like a ref", () => {
    expect(resolveModelRef("sonnet", { aliases })).toEqual({ provider: "anthropic", model: "claude-sonnet-4-6" });
    expect(resolveModelRef("SONNET", { aliases })).toEqual({ provider: "anthropic", model: "claude-sonnet-4-6" });
    expect(resolveModelRef("my/alias", { aliases })).toEqual({ provider: "openai", model: "gpt-4o" });
  });

  it("R-CH-1: a bare model id that is the model of one alias target resolves to that target", () => {
    expect(resolveModelRef("claude-sonnet-4-6", { aliases, defaultProvider: "openai" })).toEqual({
      provider: "anthropic",
      model: "claude-sonnet-4-6",
    });
  });

  it("R-CH-1: a bare id matching alias targets of several providers is ambiguous and takes the default provider", () => {
    const ambiguous = { a: "openai/llama-3", b: "groq/llama-3" };
    expect(resolveModelRef("llama-3", { aliases: ambiguous, defaultProvider: "ollama" })).toEqual({
      provider: "ollama",
      model: "llama-3",
    });
    expect(resolveModelRef("llama-3", { aliases: ambiguous })).toBeUndefined();
  });

  it("ignores alias targets that are not provider/model", () => {
    expect(resolveModelRef("broken", { aliases: { broken: "no-slash" } })).toBeUndefined();
  });
});

describe("buildCandidateChain", () => {
  const configured = {
    configuredPrimary: "anthropic/claude-opus-4-6",
    configuredFallbacks: ["openai/gpt-4o", "google/gemini-2.5-pro"],
  };

  it("R-CH-1: requested first, then configured fallbacks, then the configured primary as last resort", () => {
    const chain = buildCandidateChain({ requested: "openai/gpt-5", ...configured });
    expect(refs(chain)).toEqual(["openai/gpt-5", "openai/gpt-4o", "google/gemini-2.5-pro", "anthropic/claude-opus-4-6"]);
  });

  it("R-CH-1: configured fallbacks are tried before the primary even when the requested model is another provider's", () => {
    const chain = buildCandidateChain({ requested: "ollama/qwen3.5:27b", ...configured });
    expect(refs(chain).slice(1)).toEqual(["openai/gpt-4o", "google/gemini-2.5-pro", "anthropic/claude-opus-4-6"]);
  });

  it("R-CH-1: a fallbacks override replaces the configured fallbacks and appends no primary", () => {
    const chain = buildCandidateChain({ requested: "openai/gpt-5", fallbacksOverride: ["groq/llama-3.3-70b"], ...configured });
    expect(refs(chain)).toEqual(["openai/gpt-5", "groq/llama-3.3-70b"]);
  });

  it("R-CH-1: an empty override means no fallback and no hidden retry target", () => {
    const chain = buildCandidateChain({ requested: "openai/gpt-5", fallbacksOverride: [], ...configured });
    expect(refs(chain)).toEqual(["openai/gpt-5"]);
  });

  it("R-CH-1: duplicates by provider/model are dropped, keeping the first position", () => {
    const chain = buildCandidateChain({
      requested: "anthropic/claude-opus-4-6",
      configuredPrimary: "anthropic/claude-opus-4-6",
      configuredFallbacks: ["openai/gpt-4o", "OpenAI/gpt-4o", "anthropic/claude-opus-4-6", "google/gemini-2.5-pro"],
    });
    expect(refs(chain)).toEqual(["anthropic/claude-opus-4-6", "openai/gpt-4o", "google/gemini-2.5-pro"]);
  });

  it("R-CH-1: aliases resolve before deduplication, in every position", () => {
    const chain = buildCandidateChain({
      requested: "opus",
      configuredPrimary: "opus",
      configuredFallbacks: ["fast", "openai/gpt-4o-mini"],
      fallbacksOverride: undefined,
      aliases: { opus: "anthropic/claude-opus-4-6", fast: "openai/gpt-4o-mini" },
    });
    expect(refs(chain)).toEqual(["anthropic/claude-opus-4-6", "openai/gpt-4o-mini"]);
  });

  it("R-CH-1: explicit fallbacks are operator intent and are not filtered by any allowlist", () => {
    // The aliases map doubles as the allowlist (agents.defaults.models); a fallback outside it stays.
    const chain = buildCandidateChain({
      requested: "sonnet",
      fallbacksOverride: ["mistral/mistral-large"],
      aliases: { sonnet: "anthropic/claude-sonnet-4-6" },
    });
    expect(refs(chain)).toEqual(["anthropic/claude-sonnet-4-6", "mistral/mistral-large"]);
  });

  it("R-CH-1: a requested ModelRef is used as given", () => {
    const chain = buildCandidateChain({ requested: { provider: "openai", model: "gpt-4o" }, ...configured });
    expect(chain[0]).toEqual({ provider: "openai", model: "gpt-4o" });
  });

  it("bare ids take the configured primary's provider in configured lists and the requested provider in overrides", () => {
    expect(
      refs(
        buildCandidateChain({
          requested: "openai/gpt-4o",
          configuredPrimary: "anthropic/claude-opus-4-6",
          configuredFallbacks: ["claude-haiku-4-5"],
        }),
      ),
    ).toEqual(["openai/gpt-4o", "anthropic/claude-haiku-4-5", "anthropic/claude-opus-4-6"]);
    expect(
      refs(
        buildCandidateChain({
          requested: "openai/gpt-4o",
          configuredPrimary: "anthropic/claude-opus-4-6",
          fallbacksOverride: ["gpt-4o-mini"],
        }),
      ),
    ).toEqual(["openai/gpt-4o", "openai/gpt-4o-mini"]);
    expect(refs(buildCandidateChain({ requested: "claude-haiku-4-5", configuredPrimary: "anthropic/claude-opus-4-6" }))).toEqual([
      "anthropic/claude-haiku-4-5",
      "anthropic/claude-opus-4-6",
    ]);
  });

  it("an unresolvable entry throws a ModelSelectionError naming it instead of shortening the chain", () => {
    expect(() => buildCandidateChain({ requested: "gpt-4o" })).toThrow(ModelSelectionError);
    try {
      buildCandidateChain({ requested: "openai/gpt-4o", fallbacksOverride: ["anthropic/claude", " "] });
      expect.unreachable();
    } catch (error) {
      expect(error).toBeInstanceOf(ModelSelectionError);
      expect((error as ModelSelectionError).origin).toBe("fallbacks override[1]");
      expect((error as ModelSelectionError).message).toContain('"provider/model"');
    }
  });

  it("R-CH-1: requested is first, entries are unique, and the primary is appended only without an override (property)", () => {
    const ref = fc
      .tuple(fc.constantFrom("openai", "anthropic", "google"), fc.constantFrom("a", "b", "c", "d"))
      .map(([provider, model]) => `${provider}/${model}`);
    fc.assert(
      fc.property(
        ref,
        fc.option(fc.array(ref, { maxLength: 5 }), { nil: undefined }),
        fc.array(ref, { maxLength: 5 }),
        ref,
        (requested, fallbacksOverride, configuredFallbacks, configuredPrimary) => {
          const chain = refs(buildCandidateChain({ requested, fallbacksOverride, configuredFallbacks, configuredPrimary }));
          expect(chain[0]).toBe(requested);
          expect(new Set(chain).size).toBe(chain.length);
          const expectedMembers = new Set([requested, ...(fallbacksOverride ?? [...configuredFallbacks, configuredPrimary])]);
          expect(new Set(chain)).toEqual(expectedMembers);
        },
      ),
    );
  });
});

describe("dedupeModelRefs", () => {
  it("keeps first occurrences in order", () => {
    const a = { provider: "openai", model: "a" };
    const b = { provider: "openai", model: "b" };
    expect(dedupeModelRefs([a, b, { ...a }, b])).toEqual([a, b]);
  });
});
