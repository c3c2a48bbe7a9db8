import { describe, expect, it } from "vitest";
import { formatModelRef } from "./candidate-chain.js";
import { ModelSelectionError } from "./errors.js";
import { resolveSelection, type SelectionInput } from "./selection-source.js";

const defaults = {
  primary: "anthropic/claude-opus-4-6",
  fallbacks: ["openai/gpt-4o", "google/gemini-2.5-pro", "openrouter/meta-llama/llama-3.3-70b"],
};

function select(input: Partial<SelectionInput>) {
  const selection = resolveSelection({ defaults, ...input });
  return { ...selection, chain: selection.chain.map(formatModelRef), requested: formatModelRef(selection.requested) };
}

const autoOverride = {
  providerOverride: "openai",
  modelOverride: "gpt-4o",
  modelOverrideSource: "auto" as const,
  modelOverrideFallbackOriginProvider: "anthropic",
  modelOverrideFallbackOriginModel: "claude-opus-4-6",
};

describe("resolveSelection", () => {
  it("R-CH-2: configured default uses the configured fallbacks plus the appended primary", () => {
    const selection = select({});
    expect(selection.source).toBe("configured_default");
    expect(selection.requested).toBe("anthropic/claude-opus-4-6");
    expect(selection.chain).toEqual([
      "anthropic/claude-opus-4-6",
      "openai/gpt-4o",
      "google/gemini-2.5-pro",
      "openrouter/meta-llama/llama-3.3-70b",
    ]);
    expect(selection.strict).toBe(false);
    expect(selection.configuredPrimary).toEqual({ provider: "anthropic", model: "claude-opus-4-6" });
    expect(selection.clearAutoOverrideBeforeRun).toBe(false);
  });

  it("R-CH-2: an agent without model uses the defaults", () => {
    const selection = select({ agent: { id: "ops" } });
    expect(selection.source).toBe("configured_default");
    expect(selection.chain[0]).toBe("anthropic/claude-opus-4-6");
    expect(selection.chain).toHaveLength(4);
  });

  it("R-CH-2: agent primary given as a string is strict", () => {
    const selection = select({ agent: { id: "coder", model: "openai/gpt-5" } });
    expect(selection.source).toBe("agent_primary");
    expect(selection.chain).toEqual(["openai/gpt-5"]);
    expect(selection.strict).toBe(true);
    expect(selection.configuredPrimary).toEqual({ provider: "openai", model: "gpt-5" });
  });

  it("R-CH-2: agent primary object without fallbacks is strict", () => {
    const selection = select({ agent: { id: "coder", model: { primary: "openai/gpt-5" } } });
    expect(selection.chain).toEqual(["openai/gpt-5"]);
    expect(selection.strict).toBe(true);
  });

  it("R-CH-2: agent primary with `fallbacks: []` is explicitly strict", () => {
    const selection = select({ agent: { id: "coder", model: { primary: "openai/gpt-5", fallbacks: [] } } });
    expect(selection.chain).toEqual(["openai/gpt-5"]);
    expect(selection.strict).toBe(true);
  });

  it("R-CH-2: agent primary with its own fallbacks walks exactly those (no defaults, no appended primary)", () => {
    const selection = select({
      agent: { id: "coder", model: { primary: "openai/gpt-5", fallbacks: ["groq/llama-3.3-70b", "openai/gpt-5"] } },
    });
    expect(selection.source).toBe("agent_primary");
    expect(selection.chain).toEqual(["openai/gpt-5", "groq/llama-3.3-70b"]);
    expect(selection.strict).toBe(false);
  });

  it("R-CH-2: request model uses configured fallbacks plus the appended primary", () => {
    const selection = select({ request: { model: "mistral/mistral-large" } });
    expect(selection.source).toBe("request_model");
    expect(selection.chain).toEqual([
      "mistral/mistral-large",
      "openai/gpt-4o",
      "google/gemini-2.5-pro",
      "openrouter/meta-llama/llama-3.3-70b",
      "anthropic/claude-opus-4-6",
    ]);
    expect(selection.strict).toBe(false);
  });

  it("R-CH-2: request model with its own list walks exactly that list", () => {
    const selection = select({ request: { model: "openai/gpt-5", fallbacks: ["gpt-4o-mini", "google/gemini-2.5-flash"] } });
    expect(selection.chain).toEqual(["openai/gpt-5", "openai/gpt-4o-mini", "google/gemini-2.5-flash"]);
    expect(selection.strict).toBe(false);
  });

  it("R-CH-2: request model with fallbacks `none` is strict", () => {
    const selection = select({ request: { model: "openai/gpt-5", fallbacks: "none" } });
    expect(selection.source).toBe("request_model");
    expect(selection.chain).toEqual(["openai/gpt-5"]);
    expect(selection.strict).toBe(true);
  });

  it("R-CH-2: a request that names no model but passes a list keeps the configured default and uses the list", () => {
    const selection = select({ request: { fallbacks: ["openai/gpt-4o-mini"] } });
    expect(selection.source).toBe("configured_default");
    expect(selection.chain).toEqual(["anthropic/claude-opus-4-6", "openai/gpt-4o-mini"]);
  });

  it("R-CH-2: request model resolves through aliases", () => {
    const selection = select({ request: { model: "fast" }, aliases: { fast: "openai/gpt-4o-mini" } });
    expect(selection.requested).toBe("openai/gpt-4o-mini");
  });

  it("R-CH-2: auto fallback override keeps walking the configured chain from the override, without the primary", () => {
    const selection = select({ session: autoOverride });
    expect(selection.source).toBe("auto_fallback_override");
    expect(selection.requested).toBe("openai/gpt-4o");
    expect(selection.chain).toEqual(["openai/gpt-4o", "google/gemini-2.5-pro", "openrouter/meta-llama/llama-3.3-70b"]);
    expect(selection.strict).toBe(false);
  });

  it("R-CH-2: auto fallback override on the last fallback still reaches the earlier fallbacks, in configured order", () => {
    const selection = select({
      session: { ...autoOverride, providerOverride: "openrouter", modelOverride: "meta-llama/llama-3.3-70b" },
    });
    expect(selection.chain).toEqual(["openrouter/meta-llama/llama-3.3-70b", "openai/gpt-4o", "google/gemini-2.5-pro"]);
    expect(selection.strict).toBe(false);
  });

  it("R-CH-2: auto fallback override in the middle runs first, then every other configured fallback, no primary", () => {
    const selection = select({ session: { ...autoOverride, providerOverride: "google", modelOverride: "gemini-2.5-pro" } });
    expect(selection.chain).toEqual(["google/gemini-2.5-pro", "openai/gpt-4o", "openrouter/meta-llama/llama-3.3-70b"]);
  });

  it("R-CH-2: `fallbacks: none` (or []) on a session parked on an auto fallback runs the selected model alone", () => {
    for (const fallbacks of ["none", []] as const) {
      const named = select({ session: autoOverride, request: { model: "anthropic/claude-opus-4-6", fallbacks } });
      expect(named.source).toBe("request_model");
      expect(named.chain).toEqual(["anthropic/claude-opus-4-6"]);
      expect(named.strict).toBe(true);
      const unnamed = select({ session: autoOverride, request: { fallbacks } });
      expect(unnamed.source).toBe("configured_default");
      expect(unnamed.chain).toEqual(["anthropic/claude-opus-4-6"]);
      expect(unnamed.strict).toBe(true);
    }
  });

  it("R-CH-2: auto fallback override no longer in the configured list walks all configured fallbacks", () => {
    const selection = select({ session: { ...autoOverride, providerOverride: "mistral", modelOverride: "mistral-large" } });
    expect(selection.chain).toEqual([
      "mistral/mistral-large",
      "openai/gpt-4o",
      "google/gemini-2.5-pro",
      "openrouter/meta-llama/llama-3.3-70b",
    ]);
  });

  it("R-CH-2: auto fallback override stays selected while the client keeps sending the origin model", () => {
    const selection = select({ session: autoOverride, request: { model: "anthropic/claude-opus-4-6" } });
    expect(selection.source).toBe("auto_fallback_override");
    expect(selection.requested).toBe("openai/gpt-4o");
  });

  it("R-CH-2: auto fallback override is not used when the request names another model than its origin", () => {
    const selection = select({ session: autoOverride, request: { model: "google/gemini-2.5-flash" } });
    expect(selection.source).toBe("request_model");
    expect(selection.requested).toBe("google/gemini-2.5-flash");
  });

  it("R-CH-2: user session override is strict and beats the request model", () => {
    const selection = select({
      session: { providerOverride: "ollama", modelOverride: "qwen3.5:27b", modelOverrideSource: "user" },
      request: { model: "anthropic/claude-opus-4-6", fallbacks: ["openai/gpt-4o"] },
    });
    expect(selection.source).toBe("user_session_override");
    expect(selection.chain).toEqual(["ollama/qwen3.5:27b"]);
    expect(selection.strict).toBe(true);
  });

  it("R-CH-2: legacy override (modelOverride without source) is treated as a strict user override", () => {
    const selection = select({ session: { modelOverride: "openai/gpt-4o-mini" } });
    expect(selection.source).toBe("legacy_override");
    expect(selection.chain).toEqual(["openai/gpt-4o-mini"]);
    expect(selection.strict).toBe(true);
  });

  it("R-CH-2: legacy override written as an alias or a bare id resolves like typed text", () => {
    expect(select({ session: { modelOverride: "fast" }, aliases: { fast: "openai/gpt-4o-mini" } }).requested).toBe("openai/gpt-4o-mini");
    expect(select({ session: { modelOverride: "claude-haiku-4-5" } }).requested).toBe("anthropic/claude-haiku-4-5");
  });

  it("R-CH-2: one-off `detour run --model` (strictUserSelection) is strict and beats a session override", () => {
    const selection = select({
      session: autoOverride,
      request: { model: "google/gemini-2.5-pro", strictUserSelection: true },
    });
    expect(selection.source).toBe("user_session_override");
    expect(selection.chain).toEqual(["google/gemini-2.5-pro"]);
    expect(selection.strict).toBe(true);
  });

  it("R-CH-2: cron payload model is a job primary with configured fallbacks plus the appended primary", () => {
    const selection = select({
      source: "cron",
      cron: { model: "openai/gpt-5" },
      session: { providerOverride: "ollama", modelOverride: "qwen3.5:27b", modelOverrideSource: "user" },
    });
    expect(selection.source).toBe("cron_payload");
    expect(selection.chain).toEqual([
      "openai/gpt-5",
      "openai/gpt-4o",
      "google/gemini-2.5-pro",
      "openrouter/meta-llama/llama-3.3-70b",
      "anthropic/claude-opus-4-6",
    ]);
    expect(selection.strict).toBe(false);
  });

  it("R-CH-2: cron payload fallbacks are used exactly when present", () => {
    const selection = select({ source: "cron", cron: { model: "openai/gpt-5", fallbacks: ["google/gemini-2.5-flash"] } });
    expect(selection.chain).toEqual(["openai/gpt-5", "google/gemini-2.5-flash"]);
  });

  it("R-CH-2: cron payload `fallbacks: []` makes the cron run strict", () => {
    const selection = select({ source: "cron", cron: { model: "openai/gpt-5", fallbacks: [] } });
    expect(selection.chain).toEqual(["openai/gpt-5"]);
    expect(selection.strict).toBe(true);
  });

  it("R-CH-2: a cron-sourced request's model is the job primary", () => {
    const selection = select({ source: "cron", request: { model: "openai/gpt-5", fallbacks: "none" } });
    expect(selection.source).toBe("cron_payload");
    expect(selection.chain).toEqual(["openai/gpt-5"]);
  });

  it("R-CH-2: cron job without a model runs the configured default, with its fallbacks list if given", () => {
    const selection = select({ source: "cron", cron: { fallbacks: [] } });
    expect(selection.source).toBe("configured_default");
    expect(selection.chain).toEqual(["anthropic/claude-opus-4-6"]);
    expect(selection.strict).toBe(true);
  });

  it("R-CH-2: heartbeat uses the agent's heartbeat.model, else the defaults' one", () => {
    const fromDefaults = select({ source: "heartbeat", defaults: { ...defaults, heartbeatModel: "openai/gpt-4o-mini" } });
    expect(fromDefaults.source).toBe("heartbeat");
    expect(fromDefaults.requested).toBe("openai/gpt-4o-mini");
    expect(fromDefaults.chain.at(-1)).toBe("anthropic/claude-opus-4-6");

    const fromAgent = select({
      source: "heartbeat",
      defaults: { ...defaults, heartbeatModel: "openai/gpt-4o-mini" },
      agent: { id: "ops", heartbeat: { model: "google/gemini-2.5-flash" } },
      session: autoOverride,
    });
    expect(fromAgent.requested).toBe("google/gemini-2.5-flash");
    expect(fromAgent.clearAutoOverrideBeforeRun).toBe(false);
  });

  it("R-CH-2: heartbeat without heartbeat.model clears an auto override whose origin is no longer the configured default", () => {
    const selection = select({
      source: "heartbeat",
      session: { ...autoOverride, modelOverrideFallbackOriginModel: "claude-opus-4-5" },
    });
    expect(selection.clearAutoOverrideBeforeRun).toBe(true);
    expect(selection.source).toBe("configured_default");
    expect(selection.requested).toBe("anthropic/claude-opus-4-6");
  });

  it("R-CH-2: heartbeat without heartbeat.model clears an auto override that recorded no origin", () => {
    const selection = select({
      source: "heartbeat",
      session: { providerOverride: "openai", modelOverride: "gpt-4o", modelOverrideSource: "auto" },
    });
    expect(selection.clearAutoOverrideBeforeRun).toBe(true);
  });

  it("R-CH-2: heartbeat without heartbeat.model keeps an auto override whose origin is still the configured default", () => {
    const selection = select({ source: "heartbeat", session: autoOverride });
    expect(selection.clearAutoOverrideBeforeRun).toBe(false);
    expect(selection.source).toBe("auto_fallback_override");
    expect(selection.requested).toBe("openai/gpt-4o");
  });

  it("R-CH-2: heartbeat compares the origin with the agent's own primary when the agent has one", () => {
    const selection = select({
      source: "heartbeat",
      agent: { id: "coder", model: { primary: "openai/gpt-5", fallbacks: ["openai/gpt-4o"] } },
      session: autoOverride,
    });
    expect(selection.clearAutoOverrideBeforeRun).toBe(true);
    expect(selection.source).toBe("agent_primary");
  });

  it("R-CH-2: heartbeat never touches a user override", () => {
    const selection = select({
      source: "heartbeat",
      session: { providerOverride: "ollama", modelOverride: "qwen3.5:27b", modelOverrideSource: "user" },
    });
    expect(selection.source).toBe("user_session_override");
    expect(selection.clearAutoOverrideBeforeRun).toBe(false);
  });

  it("throws a ModelSelectionError when nothing names a model", () => {
    expect(() => resolveSelection({ defaults: {} })).toThrow(ModelSelectionError);
    expect(() => resolveSelection({ defaults: {} })).toThrow(/agents\.defaults\.model\.primary/);
  });

  it("throws a ModelSelectionError naming a configured fallback that cannot be resolved", () => {
    expect(() => resolveSelection({ defaults: { fallbacks: ["gpt-4o"] } })).toThrow(/agents\.defaults\.model\.fallbacks\[0\]/);
  });
});
