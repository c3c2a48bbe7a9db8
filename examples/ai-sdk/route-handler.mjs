// A Next.js-style route handler (app/api/chat/route.js): `POST` streams the answer as text, and the
// conversation id keeps the chat on the model and key it settled on (providerOptions.detour.sessionId).
// Run directly (`node route-handler.mjs`), it starts a mock provider and calls POST once, as Next.js would.
import { createAnthropic } from "@ai-sdk/anthropic";
import { createOpenAI } from "@ai-sdk/openai";
import { streamText } from "ai";
import { createDetourModel } from "detour-llm/ai-sdk";

// One model per server process, created at module load like any AI SDK model; a process with several
// instances shares cooldowns through Redis: config: { state: { backend: "redis", redis: { url } } }.
function createModel(baseURL) {
  const options = baseURL ? { baseURL } : {};
  return createDetourModel({
    candidates: [
      createOpenAI({ apiKey: process.env.OPENAI_KEY_A ?? "sk-a", ...options }).chat("gpt-5"),
      createOpenAI({ apiKey: process.env.OPENAI_KEY_B ?? "sk-b", ...options }).chat("gpt-5"),
      createAnthropic({ apiKey: process.env.ANTHROPIC_API_KEY ?? "sk-ant", ...options })("claude-sonnet-4-6"),
    ],
  });
}

let model = createModel(process.env.MOCK_BASE_URL);

export async function POST(request) {
  const { prompt, conversationId } = await request.json();
  const result = streamText({
    model,
    prompt,
    abortSignal: request.signal,
    providerOptions: { detour: { sessionId: conversationId } },
  });
  return result.toTextStreamResponse();
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const { startMockProvider } = await import("detour-llm");
  const mock = await startMockProvider({ scenario: { rules: [{ match: { key: "sk-a" }, steps: ["rate-limit"], then: "repeat-last" }] } });
  model = createModel(`${mock.url}/v1`);
  const response = await POST(
    new Request("http://localhost/api/chat", { method: "POST", body: JSON.stringify({ prompt: "Hello!", conversationId: "chat-42" }) }),
  );
  console.log(response.status, response.headers.get("content-type"));
  console.log(await response.text());
  await model.close();
  await mock.close();
}
