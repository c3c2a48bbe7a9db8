import { describe, expect, it } from "vitest";
import { parseConfig } from "../config/index.js";
import { checkModelFlag } from "./model-flag.js";

const config = parseConfig({
  models: { providers: { vllm: { api: "openai-completions", baseUrl: "http://127.0.0.1:8000/v1" } } },
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
    ["qwen-2", "local", { provider: "vllm", model: "qwen-2" }],
    ["openrouter/meta-llama/llama-3.3-70b", "main", { provider: "openrouter", model: "meta-llama/llama-3.3-70b" }],
  ])("R-CH-2: --model %s (agent %s) resolves as the engine resolves it", (text, agentId, expected) => {
    expect(checkModelFlag(config, text, agentId)).toEqual(expected);
  });

  it.each([
    ["foo/bar", /no provider "foo" is built in or configured \(known: .*openai.*vllm/],
    ["openai/", /"openai\/" is not a model/],
    ["two words", /"two words" is not a model/],
  ])("R-CL-1: --model %s is bad input naming the problem", (text, message) => {
    expect(() => checkModelFlag(config, text, "main")).toThrow(message);
    expect(() => checkModelFlag(config, text, "main")).toThrow(expect.objectContaining({ code: "DETOUR_CLI_BAD_INPUT" }));
  });

  it("R-CL-1: a bare model id is bad input when no primary names its provider", () => {
    const bare = parseConfig({}).config;
    expect(() => checkModelFlag(bare, "gpt-4o", "main")).toThrow(/"gpt-4o" is not a model: write "provider\/model"/);
  });
});
