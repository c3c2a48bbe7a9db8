// Runnable with Redis on 127.0.0.1:6379 (`REDIS_URL` to change it): `node shared-redis.mjs`.
// Two app instances (say, two serverless functions) share Detour's state through Redis: the first one's
// 429 cools the key down for both, so the second instance goes straight to the other key.
import { createOpenAI } from "@ai-sdk/openai";
import { generateText } from "ai";
import { startMockProvider } from "detour-llm";
import { createDetourModel } from "detour-llm/ai-sdk";

const redisUrl = process.env.REDIS_URL ?? "redis://127.0.0.1:6379";
const keyPrefix = `detour-example-${process.pid}`;
const mock = await startMockProvider({ scenario: { rules: [{ match: { key: "sk-a" }, steps: ["rate-limit"], then: "repeat-last" }] } });

function appInstance() {
  const a = createOpenAI({ apiKey: "sk-a", baseURL: `${mock.url}/v1` });
  const b = createOpenAI({ apiKey: "sk-b", baseURL: `${mock.url}/v1` });
  return createDetourModel({
    candidates: [a.chat("gpt-5"), b.chat("gpt-5")],
    config: { state: { backend: "redis", redis: { url: redisUrl, keyPrefix } } },
  });
}

const first = appInstance();
const second = appInstance();
const one = await generateText({ model: first, prompt: "hello" });
console.log("first instance:", one.providerMetadata.detour.profileId, "after", one.providerMetadata.detour.attempts.length, "failed call(s)");
const two = await generateText({ model: second, prompt: "hello" });
console.log("second instance:", two.providerMetadata.detour.profileId, "after", two.providerMetadata.detour.attempts.length, "failed call(s)");
const cooling = (await (await second.detour()).profiles.list()).filter((profile) => !profile.usable).map((profile) => profile.id);
console.log("cooling down, as both instances see it:", cooling.join(", "));
console.log("calls that reached the rate-limited key:", mock.requests().filter((request) => request.fault === "rate-limit").length);

// An app keeps this state; the example clears the cooldown it caused.
await (await first.detour()).profiles.reset("openai:1");
await first.close();
await second.close();
await mock.close();
