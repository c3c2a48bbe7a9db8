import { describe, expect, it } from "vitest";
import { parseConfig } from "../config/index.js";
import { checkModelFlag } from "./model-flag.js";

const config = parseConfig({
  models: { providers: { vllm: { api: "openai-chat", baseUrl: "http://127.0.0.1:8000/v1" } } },
  agents: {
    defaults: { model: { primary: "openai/gpt-4o-mini" }, models: { "anthropic/claude-sonnet-4-6": { alias: "sonnet" } } },
    list: [{ id: "local", model: "vllm/qwen" }],
  },
}).config;

describe("checkModelFlag", () => {
  it.each([
    ["openai/gpt-4o", "main", { provider: "openai", model: "gpt-4o" }],
    ["sonnet", "main", { provider: "anthropic", model: "claude-sonnet-4-6" }],
    ["gpt-4.1", "main", { provider: "openai", model: "gpt-4.1" }],
    ["qwen", "local", { provider: "vllm", model: "qwen" }],
    ["claude-sonnet-4", "main", { provider: "anthropic", model: "claude-sonnet-4" }],
    // A dated snapshot of a catalogued family keeps the date it was written with.
    ["gpt-4o-2024-08-06", "main", { provider: "openai", model: "gpt-4o-2024-08-06" }],
    ["claude-sonnet-4-6-20260101", "main", { provider: "anthropic", model: "claude-sonnet-4-6-20260101" }],
    ["openrouter/meta-llama/llama-3.3-70b", "main", { provider: "openrouter", model: "meta-llama/llama-3.3-70b" }],
  ])("R-CH-2: --model %s (agent %s) resolves as the engine resolves it", (text, agentId, expected) => {
    expect(checkModelFlag(config, text, agentId)).toEqual(expected);
  });

  it.each([
    ["foo/bar", /unknown provider "foo"; known providers: .*openai.*vllm/],
    ["openai/", /"openai\/" is not a model/],
    ["qwen-2", /model "qwen-2" is not an alias and no known provider offers it/],
    ["two words", /"two words" is not a model/],
    ["gpt-4o-mni", /no known provider offers it; did you mean "openai\/gpt-4o-mini"\?/],
  ])("R-CL-1: --model %s is bad input naming the problem", (text, message) => {
    expect(() => checkModelFlag(config, text, "main")).toThrow(message);
    expect(() => checkModelFlag(config, text, "main")).toThrow(expect.objectContaining({ code: "DETOUR_CLI_BAD_INPUT" }));
  });

  it("R-GW-3: a bare model id resolves through the catalogue, a subscription twin yielding to the API provider", () => {
    const bare = parseConfig({}).config;
    expect(checkModelFlag(bare, "gpt-4o", "main")).toEqual({ provider: "openai", model: "gpt-4o" });
  });

  it("R-GW-3: a bare model id that several configured providers offer is refused with the candidates", () => {
    const two = parseConfig({ agents: { defaults: { model: { primary: "openai/shared-x", fallbacks: ["anthropic/shared-x"] } } } }).config;
    expect(() => checkModelFlag(two, "shared-x", "main")).toThrow(/offered by several providers \(openai\/shared-x, anthropic\/shared-x\)/);
  });

  it("R-GW-3: a bare model id is never sent to the primary's provider unless that provider offers it", () => {
    expect(() => checkModelFlag(config, "qwen-2", "local")).toThrow(/write it as provider\/model/);
  });
});
