// Runnable: `npm install detour-llm ai @ai-sdk/openai @ai-sdk/anthropic`, then `node generate-text.mjs`.
// generateText through Detour: two OpenAI keys are one provider's profiles, Anthropic is the fallback. A mock
// provider on loopback rate-limits the first key, so the call rotates to the second one; then both OpenAI
// keys are overloaded and the answer comes from Anthropic, with Detour's notice.
import { createAnthropic } from "@ai-sdk/anthropic";
import { createOpenAI } from "@ai-sdk/openai";
import { generateText } from "ai";
import { startMockProvider } from "detour-llm";
import { createDetourModel } from "detour-llm/ai-sdk";

const mock = await startMockProvider({
  scenario: {
    rules: [
      { match: { key: "sk-work" }, steps: ["rate-limit", "overloaded"], then: "repeat-last" },
      { match: { key: "sk-home" }, steps: ["ok", "overloaded"], then: "repeat-last" },
    ],
  },
});
// In an app: createOpenAI({ apiKey: process.env.OPENAI_KEY_WORK }) and no baseURL.
const work = createOpenAI({ apiKey: "sk-work", baseURL: `${mock.url}/v1` });
const home = createOpenAI({ apiKey: "sk-home", baseURL: `${mock.url}/v1` });
const anthropic = createAnthropic({ apiKey: "sk-ant", baseURL: `${mock.url}/v1` });

const model = createDetourModel({
  candidates: [work.chat("gpt-5"), home.chat("gpt-5"), anthropic("claude-sonnet-4-6")],
  config: { auth: { cooldowns: { overloadedBackoffMs: 0 } } },
  onNotice: (notice) => console.log("notice:", notice),
});

for (const prompt of ["Say hello.", "Say hello again."]) {
  const { text, providerMetadata } = await generateText({ model, prompt });
  const { provider, model: answeredBy, profileId, attempts } = providerMetadata.detour;
  console.log(`${provider}/${answeredBy} (${profileId}) answered: ${text}`);
  for (const attempt of attempts) console.log(`  before it: ${attempt.profileId} failed (${attempt.reason}, ${attempt.status})`);
}

await model.close();
await mock.close();
