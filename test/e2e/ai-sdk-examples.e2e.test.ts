/**
 * The AI SDK examples (examples/ai-sdk/, docs/ai-sdk.md) run as a user runs them — through the built package by
 * its npm name, with the real `ai` and provider packages — against the mock provider they start on loopback.
 */
import { spawnSync } from "node:child_process";
import { resolve } from "node:path";
import { describe, expect, it } from "vitest";

const root = resolve(import.meta.dirname, "../..");

function runExample(name: string) {
  const result = spawnSync(process.execPath, [resolve(root, "examples/ai-sdk", name)], { cwd: root, encoding: "utf8", timeout: 60_000 });
  expect(result.status, result.stderr).toBe(0);
  return result.stdout;
}

describe("R-LB-1 examples/ai-sdk", () => {
  it("R-LB-1 generate-text.mjs rotates to the second key on a 429, then falls back to Anthropic on 529s with a notice", () => {
    const out = runExample("generate-text.mjs");
    expect(out).toContain("openai/gpt-5 (openai:2) answered");
    expect(out).toContain("before it: openai:1 failed (rate_limit, 429)");
    expect(out).toMatch(/notice: .*anthropic\/claude-sonnet-4-6/);
    expect(out).toContain("anthropic/claude-sonnet-4-6 (anthropic:1) answered");
    expect(out).not.toContain("sk-work");
  });

  it("R-LB-1 stream-tools-and-output.mjs gets the tool call and the object from the fallback", () => {
    const out = runExample("stream-tools-and-output.mjs");
    expect(out).toContain('tool call: get_weather {"city":"mock-city"}');
    expect(out).toContain('tool result: {"city":"mock-city","temperatureC":21}');
    expect(out).toContain("answered by: openai");
    expect(out).toContain('object: {"city":"Paris","temperatureC":21,"sunny":true}');
  });

  it("R-LB-1 route-handler.mjs answers a POST with the streamed text", () => {
    const out = runExample("route-handler.mjs");
    expect(out).toContain("200 text/plain");
    expect(out).toContain('You said: "Hello!"');
  });

  it("R-LB-1 shared-redis.mjs: the second instance sees the first's cooldown through Redis", () => {
    const out = runExample("shared-redis.mjs");
    expect(out).toContain("first instance: openai:2 after 1 failed call(s)");
    expect(out).toContain("second instance: openai:2 after 0 failed call(s)");
    expect(out).toContain("cooling down, as both instances see it: openai:1");
    expect(out).toContain("calls that reached the rate-limited key: 1");
  });
});
