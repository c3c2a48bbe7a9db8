/**
 * The real AI SDK provider packages pointed at Detour's mock provider on loopback: one factory per API key,
 * so a test builds the instances an app would (`createOpenAI({ apiKey })`) and the mock scripts each key.
 */
import { createAnthropic } from "@ai-sdk/anthropic";
import { createOpenAI } from "@ai-sdk/openai";
import { afterEach, beforeEach } from "vitest";
import { startMockProvider, type MockProvider, type MockScenarioInput } from "../../testing/mock-provider/index.js";
import type { DetourLanguageModel } from "../detour-model.js";

export function openaiWithKey(mock: MockProvider, apiKey: string) {
  return createOpenAI({ apiKey, baseURL: `${mock.url}/v1` });
}

export function anthropicWithKey(mock: MockProvider, apiKey: string) {
  return createAnthropic({ apiKey, baseURL: `${mock.url}/v1` });
}

/** A mock rule named after the key it scripts, so `callsPerRule` can count each key's requests. */
export function keyRule(
  key: string,
  steps: MockScenarioInput["rules"][number]["steps"],
  extra: Partial<MockScenarioInput["rules"][number]> = {},
) {
  return { name: key, match: { key }, steps, ...extra };
}

/** How many requests each named rule answered. */
export function callsPerRule(mock: MockProvider): Record<string, number> {
  const counts: Record<string, number> = {};
  for (const request of mock.requests()) {
    if (request.ruleName !== undefined) counts[request.ruleName] = (counts[request.ruleName] ?? 0) + 1;
  }
  return counts;
}

/** A mock per test, and every Detour model a test made closed after it. */
export function mockPerTest(): {
  mock(): MockProvider;
  start(scenario: MockScenarioInput): Promise<MockProvider>;
  track<M extends DetourLanguageModel>(model: M): M;
} {
  let mock: MockProvider | undefined;
  const models: DetourLanguageModel[] = [];
  beforeEach(() => {
    mock = undefined;
  });
  afterEach(async () => {
    await Promise.all(models.splice(0).map((model) => model.close()));
    await mock?.close();
  });
  return {
    mock: () => {
      if (!mock) throw new Error("start the mock first");
      return mock;
    },
    async start(scenario) {
      mock = await startMockProvider({ scenario });
      return mock;
    },
    track(model) {
      models.push(model);
      return model;
    },
  };
}
