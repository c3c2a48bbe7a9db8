/** SPEC R-LB-1: how AI SDK models become the chain and its profiles, and the mistakes refused before any call. */
import { createAnthropic } from "@ai-sdk/anthropic";
import { createOpenAI } from "@ai-sdk/openai";
import type { LanguageModelV3 } from "@ai-sdk/provider";
import { describe, expect, it } from "vitest";
import { AiSdkCandidatesError, planCandidates, type DetourCandidateInput, type ProviderInstance } from "./candidates.js";

const openaiA = createOpenAI({ apiKey: "sk-a" });
const openaiB = createOpenAI({ apiKey: "sk-b" });
const anthropic = createAnthropic({ apiKey: "sk-ant" });

function shape(inputs: readonly DetourCandidateInput[], profiles?: Record<string, ProviderInstance>) {
  return planCandidates(inputs, profiles).candidates.map((candidate) => ({
    ref: candidate.ref,
    profiles: [...candidate.byProfile.keys()],
  }));
}

describe("R-LB-1 candidates and profiles", () => {
  const rows: {
    name: string;
    inputs: DetourCandidateInput[];
    profiles?: Record<string, ProviderInstance>;
    expected: ReturnType<typeof shape>;
  }[] = [
    {
      name: "one model per provider: one candidate each, one profile each",
      inputs: [openaiA("gpt-5"), anthropic("claude-sonnet-4-6")],
      expected: [
        { ref: "openai/gpt-5", profiles: ["openai:1"] },
        { ref: "anthropic/claude-sonnet-4-6", profiles: ["anthropic:1"] },
      ],
    },
    {
      name: "two keys of one provider and model: one candidate with two profiles",
      inputs: [openaiA.chat("gpt-5"), openaiB.chat("gpt-5"), anthropic("claude-sonnet-4-6")],
      expected: [
        { ref: "openai/gpt-5", profiles: ["openai:1", "openai:2"] },
        { ref: "anthropic/claude-sonnet-4-6", profiles: ["anthropic:1"] },
      ],
    },
    {
      name: "named profiles keep their names",
      inputs: [
        { model: openaiA("gpt-5"), profile: "openai:work" },
        { model: openaiB("gpt-5"), profile: "openai:home" },
      ],
      expected: [{ ref: "openai/gpt-5", profiles: ["openai:work", "openai:home"] }],
    },
    {
      name: "provider instances as profiles serve every candidate of their provider",
      inputs: [openaiA("gpt-5"), openaiA("gpt-5-mini")],
      profiles: { "openai:work": openaiA, "openai:home": openaiB },
      expected: [
        { ref: "openai/gpt-5", profiles: ["openai:work", "openai:home"] },
        { ref: "openai/gpt-5-mini", profiles: ["openai:work", "openai:home"] },
      ],
    },
  ];
  for (const row of rows) {
    it(`R-LB-1 ${row.name}`, () => {
      expect(shape(row.inputs, row.profiles)).toEqual(row.expected);
    });
  }

  it("R-LB-1 the profile's model is the instance made with that key", () => {
    const a = openaiA.chat("gpt-5");
    const b = openaiB.chat("gpt-5");
    const [candidate] = planCandidates([a, b]).candidates;
    expect(candidate?.byProfile.get("openai:1")).toBe(a);
    expect(candidate?.byProfile.get("openai:2")).toBe(b);
  });

  const refused: { name: string; inputs: unknown[]; profiles?: Record<string, unknown>; message: RegExp }[] = [
    { name: "no candidates", inputs: [], message: /at least one candidate/ },
    { name: "something that is not a model", inputs: ["openai/gpt-5"], message: /candidates\[0\] is not an AI SDK language model/ },
    {
      name: "a model of an older specification",
      inputs: [
        { ...openaiA("gpt-5"), specificationVersion: "v2", doGenerate() {}, doStream() {}, modelId: "gpt-5", provider: "openai.chat" },
      ],
      message: /specification "v2"/,
    },
    {
      name: "a candidate without a model for a key its provider's other candidates have",
      inputs: [openaiA("gpt-5"), openaiB("gpt-5"), openaiA("gpt-5-mini")],
      message: /openai\/gpt-5-mini has no model for the profile openai:2/,
    },
    {
      name: "a profile id without its provider",
      inputs: [openaiA("gpt-5")],
      profiles: { work: openaiA },
      message: /must read "<provider>:<name>"/,
    },
    {
      name: "a named profile of another provider",
      inputs: [{ model: openaiA("gpt-5"), profile: "anthropic:x" }],
      message: /does not belong to openai/,
    },
    {
      name: "one profile twice for one model",
      inputs: [
        { model: openaiA("gpt-5"), profile: "openai:x" },
        { model: openaiB("gpt-5"), profile: "openai:x" },
      ],
      message: /repeats the profile/,
    },
  ];
  for (const row of refused) {
    it(`R-LB-1 refuses ${row.name} before any call`, () => {
      let thrown: unknown;
      try {
        planCandidates(row.inputs as LanguageModelV3[], row.profiles as Record<string, ProviderInstance>);
      } catch (error) {
        thrown = error;
      }
      expect(thrown).toBeInstanceOf(AiSdkCandidatesError);
      expect((thrown as AiSdkCandidatesError).code).toBe("DETOUR_AI_SDK_CANDIDATES_INVALID");
      expect((thrown as Error).message).toMatch(row.message);
    });
  }
});
