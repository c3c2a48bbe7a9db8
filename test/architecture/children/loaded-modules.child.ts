/**
 * Starts the gateway the way `detour gateway` does for a plain setup (SQLite store, one OpenAI-compatible
 * and one Anthropic provider, no OAuth profile) and prints, as one JSON line, every module the process
 * loaded: ES modules through a load hook registered before the gateway is imported, CommonJS modules from
 * the require cache. Used by gateway-start-modules.test.ts.
 */
import { mkdtempSync, rmSync } from "node:fs";
import { createRequire, register } from "node:module";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { MessageChannel } from "node:worker_threads";

const esm: string[] = [];
const { port1, port2 } = new MessageChannel();
port1.on("message", (url: string) => esm.push(url));
port1.unref();
const hook = `
let port;
export function initialize(data) { port = data.port; }
export async function load(url, context, next) { port.postMessage(url); return next(url, context); }
`;
register(`data:text/javascript,${encodeURIComponent(hook)}`, { data: { port: port2 }, transferList: [port2] });

const { startGateway } = await import("../../../src/gateway/start-gateway.js");
const home = mkdtempSync(join(tmpdir(), "detour-modules-"));
const gateway = await startGateway({
  port: 0,
  env: { DETOUR_HOME: home, OPENAI_KEY: "sk-test-0000", ANTHROPIC_KEY: "sk-ant-test-0000" },
  config: {
    models: {
      providers: {
        openai: { api: "openai-chat", baseUrl: "http://127.0.0.1:9/v1" },
        anthropic: { api: "anthropic-messages", baseUrl: "http://127.0.0.1:9" },
      },
    },
    auth: {
      profiles: {
        "openai:key": { provider: "openai", mode: "api_key", keyRef: { env: "OPENAI_KEY" } },
        "anthropic:key": { provider: "anthropic", mode: "api_key", keyRef: { env: "ANTHROPIC_KEY" } },
      },
    },
    agents: { defaults: { model: { primary: "openai/gpt-test", fallbacks: ["anthropic/claude-test"] } } },
    state: { backend: "sqlite" },
  },
});
// One turn for the hook thread's last messages.
await new Promise((resolve) => setTimeout(resolve, 50));
const cjs = Object.keys(createRequire(import.meta.url).cache);
process.stdout.write(`${JSON.stringify({ esm, cjs })}\n`);
await gateway.close();
rmSync(home, { recursive: true, force: true });
