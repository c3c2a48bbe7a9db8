/**
 * R-ST-6 from outside: the official `openai` and `@anthropic-ai/sdk` clients send NON-streamed requests to a
 * real gateway on loopback; the mock provider stays silent, or generates slowly and steadily. A silent upstream
 * is handed to the fallback at the first-token watchdog (the real 15 s default once, configured values
 * otherwise), on the same-wire lane and across wires; a steady generation is not cut; metrics, the decision
 * log and the response headers tell the same story as the client's answer.
 */
import Anthropic from "@anthropic-ai/sdk";
import OpenAI from "openai";
import { describe, expect, it } from "vitest";
import { createDetour } from "../../src/engine/create-detour.js";
import type { LogLevel } from "../../src/ports/events.js";
import { startMockProvider } from "../../src/testing/mock-provider/index.js";
import {
  CLIENT_TOKEN,
  KEYS,
  harnessClosedAfterEachTest,
  harnessConfig,
  type Harness,
  type HarnessOptions,
} from "./fixtures/gateway-harness.js";

const startPerTest = harnessClosedAfterEachTest();

interface LogLine {
  level: LogLevel;
  message: string;
  fields?: Record<string, unknown>;
}

async function start(options: HarnessOptions): Promise<{ harness: Harness; lines: LogLine[]; openai: OpenAI; anthropic: Anthropic }> {
  const lines: LogLine[] = [];
  const harness = await startPerTest({
    ...options,
    logger: { log: (level, message, fields) => lines.push({ level, message, ...(fields ? { fields } : {}) }) },
  });
  // Clients more patient than the watchdogs under test, so the gateway's own decision is what the test sees.
  const openai = new OpenAI({ baseURL: `${harness.gateway.url}/v1`, apiKey: CLIENT_TOKEN, maxRetries: 0, timeout: 60_000 });
  const anthropic = new Anthropic({ baseURL: harness.gateway.url, apiKey: CLIENT_TOKEN, maxRetries: 0, timeout: 60_000 });
  return { harness, lines, openai, anthropic };
}

async function metricsText(h: Harness): Promise<string> {
  return fetch(`${h.gateway.url}/metrics`, { headers: { authorization: `Bearer ${CLIENT_TOKEN}` } }).then((response) => response.text());
}

function decisions(lines: LogLine[]): [unknown, unknown, unknown][] {
  return lines
    .filter((line) => line.message === "model_fallback_decision")
    .map((line) => [line.fields?.decision, line.fields?.candidateModel, line.fields?.reason]);
}

const silentOn = (api: "openai" | "anthropic") => [{ match: { api }, steps: ["silence" as const], then: "repeat-last" as const }];

describe("silence caught quickly for non-streamed requests (R-ST-6)", () => {
  it("R-ST-6: a non-streamed Anthropic SDK request to a silent upstream (same-wire lane) fails over within the real 15 s first-token default + 2 s", async () => {
    const {
      harness: h,
      lines,
      anthropic,
    } = await start({
      scenario: silentOn("anthropic"),
      model: { primary: "anthropic/mock-claude", fallbacks: ["openai/mock-gpt"] },
      // The harness's short watchdogs are lifted: the real default, under a provider deadline far beyond it.
      gateway: { ttftTimeoutSeconds: undefined, streamStallSeconds: 30 },
      providerTimeoutSeconds: 120,
    });
    const startedAt = Date.now();
    const { data, response } = await anthropic.messages
      .create({ model: "anthropic/mock-claude", max_tokens: 100, messages: [{ role: "user", content: "hello" }] })
      .withResponse();
    const elapsedMs = Date.now() - startedAt;
    expect(elapsedMs).toBeGreaterThanOrEqual(15_000);
    expect(elapsedMs).toBeLessThan(17_000);
    expect(data.model).toBe("openai/mock-gpt");
    expect(data.content[0]).toMatchObject({ type: "text" });
    expect(response.headers.get("x-detour-model")).toBe("openai/mock-gpt");
    expect(response.headers.get("x-detour-attempts")).toBe("2");
    expect(decisions(lines)).toEqual([
      ["candidate_failed", "anthropic/mock-claude", "timeout"],
      ["candidate_succeeded", "openai/mock-gpt", null],
    ]);
    const metrics = await metricsText(h);
    expect(metrics).toMatch(/detour_attempts_total\{provider="anthropic",model="mock-claude",reason="timeout"\} 1/);
    expect(metrics).toMatch(/detour_attempts_total\{provider="openai",model="mock-gpt",reason="none"\} 1/);
    expect(metrics).toMatch(/detour_requests_total\{agent="main",outcome="succeeded"\} 1/);
    // The silent upstream was asked for a stream (so its silence could be timed), the client's body otherwise.
    const sent = h.mock.requests().filter((request) => request.api === "anthropic");
    expect(sent.map((request) => (request.body as { stream?: unknown }).stream)).toEqual([true]);
  }, 30_000);

  it("R-ST-6: a non-streamed OpenAI SDK request to a silent upstream (same-wire lane, two keys) fails over within the configured first token per key + 2 s", async () => {
    const {
      harness: h,
      lines,
      openai,
    } = await start({ scenario: silentOn("openai"), gateway: { ttftTimeoutSeconds: 0.5, streamStallSeconds: 0.5 } });
    const startedAt = Date.now();
    const { data, response } = await openai.chat.completions
      .create({ model: "openai/mock-gpt", messages: [{ role: "user", content: "hello" }] })
      .withResponse();
    // Both keys of the provider were tried (a timeout rotates to the next profile), each cut at 0.5 s.
    expect(Date.now() - startedAt).toBeLessThan(2 * 500 + 2_000);
    expect(data.model).toBe("anthropic/mock-claude");
    expect(response.headers.get("x-detour-model")).toBe("anthropic/mock-claude");
    expect(decisions(lines)).toEqual([
      ["candidate_failed", "openai/mock-gpt", "timeout"],
      ["candidate_succeeded", "anthropic/mock-claude", null],
    ]);
    expect(await metricsText(h)).toMatch(/detour_attempts_total\{provider="openai",model="mock-gpt",reason="timeout"\} 2/);
  });

  it("R-ST-6: a non-streamed OpenAI SDK request whose cross-wire primary is silent fails over within the configured first token + 2 s", async () => {
    const { lines, openai } = await start({
      scenario: silentOn("anthropic"),
      model: { primary: "anthropic/mock-claude", fallbacks: ["openai/mock-gpt"] },
      gateway: { ttftTimeoutSeconds: 1, streamStallSeconds: 1 },
    });
    const startedAt = Date.now();
    const answer = await openai.chat.completions.create({ model: "anthropic/mock-claude", messages: [{ role: "user", content: "hello" }] });
    expect(Date.now() - startedAt).toBeLessThan(3_000);
    expect(answer.model).toBe("openai/mock-gpt");
    expect(decisions(lines)[0]).toEqual(["candidate_failed", "anthropic/mock-claude", "timeout"]);
  });

  it("R-ST-6: a steady generation longer than the first-token and stall watchdogs is not cut, for both SDKs", async () => {
    const {
      harness: h,
      lines,
      openai,
      anthropic,
    } = await start({
      scenario: [{ steps: [{ fault: "slow-generation", tokenDelayMs: 300, tokens: 12 }], then: "repeat-last" }],
      // 12 tokens 300 ms apart: 3.6 s of generation against a 1 s first-token and a 1 s stall watchdog.
      gateway: { ttftTimeoutSeconds: 1, streamStallSeconds: 1 },
    });
    const startedAt = Date.now();
    const fromOpenAi = await openai.chat.completions.create({
      model: "openai/mock-gpt",
      messages: [{ role: "user", content: "a long answer" }],
    });
    expect(Date.now() - startedAt).toBeGreaterThanOrEqual(3_000);
    expect(fromOpenAi.model).toBe("openai/mock-gpt");
    expect(fromOpenAi.choices[0]?.message.content?.trim().split(/\s+/)).toHaveLength(12);
    expect(fromOpenAi.usage?.completion_tokens).toBe(12);
    const fromAnthropic = await anthropic.messages.create({
      model: "anthropic/mock-claude",
      max_tokens: 100,
      messages: [{ role: "user", content: "a long answer" }],
    });
    expect(fromAnthropic.model).toBe("anthropic/mock-claude");
    expect(
      fromAnthropic.content
        .map((block) => (block.type === "text" ? block.text : ""))
        .join("")
        .trim()
        .split(/\s+/),
    ).toHaveLength(12);
    expect(fromAnthropic.usage.output_tokens).toBe(12);
    expect(fromAnthropic.stop_reason).toBe("end_turn");
    expect(decisions(lines).map(([decision]) => decision)).toEqual(["candidate_succeeded", "candidate_succeeded"]);
    const metrics = await metricsText(h);
    expect(metrics).not.toMatch(/reason="timeout"/);
    expect(metrics).toMatch(/detour_requests_total\{agent="main",outcome="succeeded"\} 2/);
    expect(h.mock.counts().byKey[KEYS.openaiA]).toBe(1);
  });

  it("R-ST-6: a library run (createDetour, config-built providers over HTTP) to a silent upstream fails over within the configured first token + 2 s", async () => {
    const mock = await startMockProvider({ scenario: silentOn("anthropic"), models: ["mock-gpt", "mock-claude"] });
    const detour = await createDetour({
      config: harnessConfig(mock.url, {
        model: { primary: "anthropic/mock-claude", fallbacks: ["openai/mock-gpt"] },
        gateway: { ttftTimeoutSeconds: 1 },
      }),
      env: { E2E_OPENAI_A: KEYS.openaiA, E2E_OPENAI_B: KEYS.openaiB, E2E_ANTHROPIC_A: KEYS.anthropicA },
    });
    try {
      const startedAt = Date.now();
      const outcome = await detour.run({
        request: { messages: [{ role: "user", content: [{ type: "text", text: "hello" }] }], maxTokens: 50 },
      });
      expect(Date.now() - startedAt).toBeLessThan(3_000);
      expect(outcome.provider).toBe("openai");
      expect(outcome.attempts.map((attempt) => [attempt.provider, attempt.reason])).toEqual([["anthropic", "timeout"]]);
      expect(outcome.result.content[0]).toMatchObject({ type: "text" });
      expect(outcome.result.usage.outputTokens).toBeGreaterThan(0);
    } finally {
      await detour.close();
      await mock.close();
    }
  });
});
