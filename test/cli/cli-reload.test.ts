/**
 * Hot reload of `detour gateway` as a spawned process: a rewrite of the config file is
 * picked up by the next request; an invalid rewrite is refused path by path while the old config keeps
 * serving; a stream that started before a reload finishes on the model it started with; SIGHUP reloads too.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startMockProvider, type MockProvider } from "../../src/testing/mock-provider/index.js";
import { ensureBuilt } from "./helpers/build.js";
import { createSandbox, stop, waitForLine, type Sandbox } from "./helpers/run-detour.js";

let sandbox: Sandbox;
let mock: MockProvider;
beforeAll(async () => {
  await ensureBuilt();
  sandbox = createSandbox();
  // A streamed answer from mock-slow starts only after 4 s: long enough to reload in the middle of it.
  mock = await startMockProvider({
    scenario: [{ match: { model: "mock-slow" }, steps: [{ fault: "slow-first-token", delayMs: 4000 }], then: "repeat-last" }],
  });
}, 180_000);
afterAll(async () => {
  await mock?.close();
  sandbox?.cleanup();
});

const CLIENT = { "content-type": "application/json", authorization: "Bearer sk-mock-client-0123456789" };

function configWith(primary: string, extra: Record<string, unknown> = {}) {
  return { models: { providers: { openai: { baseUrl: `${mock.url}/v1` } } }, agents: { defaults: { model: primary } }, ...extra };
}

async function answeredModel(url: string): Promise<string> {
  const response = await fetch(`${url}/v1/chat/completions`, {
    method: "POST",
    headers: CLIENT,
    body: JSON.stringify({ model: "detour", messages: [{ role: "user", content: "hello" }] }),
  });
  expect(response.status).toBe(200);
  return ((await response.json()) as { model: string }).model;
}

async function waitFor(condition: () => boolean | Promise<boolean>, what: string, timeoutMs = 10_000): Promise<void> {
  for (let waited = 0; waited < timeoutMs; waited += 100) {
    if (await condition()) return;
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  throw new Error(`timed out waiting for ${what}`);
}

describe("detour gateway hot reload", () => {
  it("reloads on a config file change and on SIGHUP, refuses an invalid config, and lets a stream in flight finish on its model", async () => {
    const file = sandbox.writeConfig(configWith("openai/mock-slow"), "reload.json5");
    const added = await sandbox.run(["--config", file, "auth", "add", "openai", "--key", "-"], { stdin: "sk-reload-test-0123456789" });
    expect(added.code, added.stderr).toBe(0);

    const child = sandbox.spawn(["--config", file, "gateway", "--port", "0", "--json"], { env: { DETOUR_LOG_LEVEL: "debug" } });
    let logs = "";
    child.stderr.setEncoding("utf8").on("data", (chunk: string) => (logs += chunk));
    const logLines = () =>
      logs
        .split("\n")
        .filter((line) => line.startsWith("{"))
        .map((line) => JSON.parse(line) as Record<string, unknown>);
    const { url } = JSON.parse(await waitForLine(child, /^\{"url":/)) as { url: string };
    try {
      let streamDone = false;
      // A slow stream starts on the first config...
      const streamed = fetch(`${url}/v1/chat/completions`, {
        method: "POST",
        headers: CLIENT,
        body: JSON.stringify({ model: "detour", stream: true, messages: [{ role: "user", content: "hello" }] }),
      }).then(async (response) => {
        const body = await response.text();
        streamDone = true;
        return { status: response.status, body };
      });
      await waitFor(() => mock.requests().some((request) => request.model === "mock-slow"), "the slow stream to reach the provider");

      // ...and a rewrite names a new primary: the next request is answered by it.
      sandbox.writeConfig(configWith("openai/mock-fresh"), "reload.json5");
      await waitFor(() => logLines().some((line) => line.event === "config_reloaded"), "the reload");
      expect(await answeredModel(url)).toMatch(/mock-fresh$/);
      expect(streamDone).toBe(false);
      expect(logLines().some((line) => line.event === "config_engine_retired")).toBe(false);

      const finished = await streamed;
      expect(finished.status).toBe(200);
      expect(finished.body).toContain("mock-slow");
      expect(finished.body).toContain("[DONE]");
      // The previous engine is closed only now that its stream is done.
      await waitFor(() => logLines().some((line) => line.event === "config_engine_retired"), "the old engine to close");

      // An invalid rewrite: every invalid path on its own error line, the running config keeps serving.
      sandbox.writeConfig(
        {
          ...configWith("openai/mock-broken"),
          gateway: { port: "eighty" },
          agents: { defaults: { model: "openai/mock-broken", timeoutSeconds: -5 } },
        },
        "reload.json5",
      );
      await waitFor(() => logLines().some((line) => line.event === "config_reload_failed"), "the refusal");
      const refused = logLines().filter((line) => line.event === "config_reload_invalid");
      expect(refused.map((line) => line.path)).toEqual(expect.arrayContaining(["gateway.port", "agents.defaults.timeoutSeconds"]));
      expect(refused.every((line) => line.level === "error")).toBe(true);
      expect(await answeredModel(url)).toMatch(/mock-fresh$/);

      // SIGHUP reloads the file as it is; a changed port is kept and named as needing a restart.
      const reloadsBefore = logLines().filter((line) => line.event === "config_reloaded").length;
      sandbox.writeConfig({ ...configWith("openai/mock-third"), gateway: { port: 9999 } }, "reload.json5");
      child.kill("SIGHUP");
      await waitFor(() => logLines().filter((line) => line.event === "config_reloaded").length > reloadsBefore, "the SIGHUP reload");
      expect(await answeredModel(url)).toMatch(/mock-third$/);
      expect(logLines()).toContainEqual(
        expect.objectContaining({ event: "config_reload_needs_restart", path: "gateway.port", level: "warn" }),
      );
      expect((await fetch(`${url}/healthz`)).status).toBe(200);
    } finally {
      const stopped = await stop(child, "SIGINT");
      expect(stopped.code, logs + stopped.stderr).toBe(0);
    }
  }, 60_000);
});
