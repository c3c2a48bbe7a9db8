// Runnable: `npm install @opentelemetry/sdk-trace-base` next to detour-llm, then `node examples/tracing.mjs`.
// A mock provider on loopback answers the first call with a 429 and the second model answers: the console
// shows one `detour.run` span with two `chat …` attempt spans, the first carrying the cooldown it caused.
import { trace } from "@opentelemetry/api";
import { BasicTracerProvider, ConsoleSpanExporter, SimpleSpanProcessor } from "@opentelemetry/sdk-trace-base";
import { createDetour, startMockProvider } from "detour-llm";

trace.setGlobalTracerProvider(new BasicTracerProvider({ spanProcessors: [new SimpleSpanProcessor(new ConsoleSpanExporter())] }));

const mock = await startMockProvider({ scenario: { rules: [{ match: { model: "gpt-5" }, steps: ["rate-limit"] }] } });
const detour = await createDetour({
  config: {
    models: { providers: { openai: { api: "openai-completions", baseUrl: `${mock.url}/v1` } } },
    auth: { profiles: { "openai:demo": { provider: "openai", mode: "api_key", keyRef: { env: "DEMO_KEY" } } } },
    agents: { defaults: { model: { primary: "openai/gpt-5", fallbacks: ["openai/gpt-5-mini"] } } },
    state: { backend: "memory" },
  },
  env: { DEMO_KEY: "sk-demo" },
});
const out = await detour.run({ request: { messages: [{ role: "user", content: [{ type: "text", text: "Hello" }] }] } });
console.log("answered by", `${out.provider}/${out.model}`, out.notice ?? "");
await detour.close();
await mock.close();
