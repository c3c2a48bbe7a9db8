// Runnable: `node stream-tools-and-output.mjs` (with detour-llm, ai, zod and the provider packages installed).
// streamText with a tool, and structured output with Output.object, through Detour. The mock provider's
// Anthropic model is overloaded, so both answers come from the OpenAI fallback: the tool call and the
// object arrive whole, as if the app had called that model directly.
import { createAnthropic } from "@ai-sdk/anthropic";
import { createOpenAI } from "@ai-sdk/openai";
import { Output, generateText, stepCountIs, streamText, tool } from "ai";
import { startMockProvider } from "detour-llm";
import { createDetourModel } from "detour-llm/ai-sdk";
import { z } from "zod";

const weatherJson = JSON.stringify({ city: "Paris", temperatureC: 21, sunny: true });
const mock = await startMockProvider({
  scenario: {
    rules: [
      { match: { api: "anthropic" }, steps: ["overloaded"], then: "repeat-last" },
      { match: { model: "gpt-5-mini" }, steps: ["ok"], answer: weatherJson },
    ],
  },
});
const anthropic = createAnthropic({ apiKey: "sk-ant", baseURL: `${mock.url}/v1` });
const openai = createOpenAI({ apiKey: "sk-openai", baseURL: `${mock.url}/v1` });
const model = createDetourModel({ candidates: [anthropic("claude-sonnet-4-6"), openai.chat("gpt-5")] });
const jsonModel = createDetourModel({ candidates: [anthropic("claude-sonnet-4-6"), openai.chat("gpt-5-mini")] });

// 1. Tools: the model calls get_weather; the AI SDK runs it and sends the result back (two steps).
const withTools = streamText({
  model,
  prompt: "Use get_weather for Paris.",
  tools: {
    get_weather: tool({
      description: "The weather in a city",
      inputSchema: z.object({ city: z.string() }),
      execute: async ({ city }) => ({ city, temperatureC: 21 }),
    }),
  },
  stopWhen: stepCountIs(2),
});
for await (const part of withTools.fullStream) {
  if (part.type === "tool-call") console.log("tool call:", part.toolName, JSON.stringify(part.input));
  if (part.type === "tool-result") console.log("tool result:", JSON.stringify(part.output));
}
console.log("answered by:", (await withTools.providerMetadata)?.detour?.provider);

// 2. Structured output: the object is parsed and validated against the schema.
const { output } = await generateText({
  model: jsonModel,
  prompt: "The weather in Paris as JSON.",
  output: Output.object({ schema: z.object({ city: z.string(), temperatureC: z.number(), sunny: z.boolean() }) }),
});
console.log("object:", JSON.stringify(output));

await model.close();
await jsonModel.close();
await mock.close();
