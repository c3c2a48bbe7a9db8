import { describe, expect, it } from "vitest";
import { estimateInputTokens } from "../core/fit.js";
import { requestFacts } from "./request-facts.js";

describe("requestFacts", () => {
  it("R-FB-8: counts the text of system, messages, tool calls, results and definitions; images apart", () => {
    const parameters = { type: "object", properties: { city: { type: "string" } } };
    const facts = requestFacts({
      system: "be brief",
      maxTokens: 300,
      messages: [
        {
          role: "user",
          content: [
            { type: "text", text: "what is the weather" },
            { type: "image", source: { kind: "base64", mediaType: "image/png", data: "A".repeat(100_000) } },
          ],
        },
        { role: "assistant", content: [{ type: "tool-call", id: "c1", name: "weather", arguments: '{"city":"Oslo"}' }] },
        { role: "tool", content: [{ type: "tool-result", toolCallId: "c1", content: "rain" }] },
      ],
      tools: [{ name: "weather", description: "forecast", parameters }],
    });
    const textCharacters =
      "be brief".length +
      "what is the weather".length +
      "weather".length +
      '{"city":"Oslo"}'.length +
      "rain".length +
      "weather".length +
      "forecast".length +
      JSON.stringify(parameters).length;
    expect(facts).toEqual({
      inputTokens: estimateInputTokens({ textCharacters, images: 1, toolDefinitions: 1, messages: 3 }),
      maxOutputTokens: 300,
      modalities: ["image"],
    });
  });

  it("R-FB-8: a text-only request without max_tokens carries no modality and no output ask", () => {
    expect(requestFacts({ messages: [{ role: "user", content: [{ type: "text", text: "hi" }] }] })).toEqual({
      inputTokens: 1 + 4,
      modalities: [],
    });
  });
});
