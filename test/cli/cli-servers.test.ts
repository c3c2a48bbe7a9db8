/**
 * The long-running commands as spawned processes: `detour gateway` (serves, runs cron.jobs with the cron
 * selection source, stops cleanly on SIGINT) and `detour mock-provider` (R-CL-3: named scenarios and scenario
 * files, stops on SIGTERM).
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
  mock = await startMockProvider();
}, 180_000);
afterAll(async () => {
  await mock?.close();
  sandbox?.cleanup();
});

function chat(baseUrl: string, model: string) {
  return fetch(`${baseUrl}/v1/chat/completions`, {
    method: "POST",
    headers: { "content-type": "application/json", authorization: "Bearer sk-mock-client-0123456789" },
    body: JSON.stringify({ model, messages: [{ role: "user", content: "hello" }] }),
  });
}

describe("detour gateway", () => {
  it("R-CL-1: gateway prints its URL, serves, runs cron jobs with the cron source, and stops on SIGINT", async () => {
    const config = sandbox.writeConfig(
      {
        models: { providers: { openai: { baseUrl: `${mock.url}/v1` }, anthropic: { baseUrl: mock.url } } },
        agents: { defaults: { model: "anthropic/mock-claude" } },
        cron: { jobs: [{ id: "heartbeat-check", schedule: "* * * * * *", payload: { message: "ping", model: "openai/mock-gpt" } }] },
      },
      "gateway.json5",
    );
    const added = await sandbox.run(["--config", config, "auth", "add", "openai", "--key", "-"], { stdin: "sk-gateway-test-0123456789" });
    expect(added.code, added.stderr).toBe(0);

    const child = sandbox.spawn(["--config", config, "gateway", "--port", "0", "--json"], { env: { DETOUR_LOG_LEVEL: "debug" } });
    let logs = "";
    child.stderr.setEncoding("utf8").on("data", (chunk: string) => (logs += chunk));
    const started = JSON.parse(await waitForLine(child, /^\{"url":/)) as { url: string; cronJobs: { id: string; nextRun: string }[] };
    expect(started.url).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/);
    // R-GW-13: the start-up output says which hosts and origins are answered and how to allow another.
    const guard = started as unknown as { allowedHosts: string; allowedOrigins: string };
    expect(guard.allowedHosts).toContain(`on port ${new URL(started.url).port}`);
    expect(guard.allowedHosts).toContain("gateway.allowedHosts");
    expect(guard.allowedOrigins).toContain(`http://localhost:${new URL(started.url).port}`);
    expect(started.cronJobs).toEqual([{ id: "heartbeat-check", nextRun: expect.any(String) }]);

    const response = await chat(started.url, "openai/mock-gpt");
    expect(response.status).toBe(200);
    expect(((await response.json()) as { model: string }).model).toMatch(/mock-gpt$/);
    // JSON log lines are batched on the real stderr (LOG_FLUSH_MS): the access line still shows within moments.
    const askedAt = Date.now();
    while (Date.now() - askedAt < 2000 && !logs.includes('"event":"http_request"')) await new Promise((resolve) => setTimeout(resolve, 20));
    expect(logs).toContain('"event":"http_request"');
    expect(Date.now() - askedAt).toBeLessThan(1500);

    // The job runs every second; give it a few ticks on a busy machine.
    for (let waited = 0; waited < 8000 && !logs.includes('"jobId":"heartbeat-check","outcome":"succeeded"'); waited += 200) {
      await new Promise((resolve) => setTimeout(resolve, 200));
    }
    const lines = logs
      .split("\n")
      .filter((line) => line.startsWith("{"))
      .map((line) => JSON.parse(line) as Record<string, unknown>);
    expect(lines).toContainEqual(
      expect.objectContaining({
        event: "cron_job_finished",
        jobId: "heartbeat-check",
        outcome: "succeeded",
        provider: "openai",
        model: "mock-gpt",
      }),
    );
    expect(lines).toContainEqual(
      expect.objectContaining({ event: "run_started", selectionSource: "cron_payload", requestedModel: "openai/mock-gpt" }),
    );

    const stopped = await stop(child, "SIGINT");
    expect(stopped.code, stopped.stderr).toBe(0);
    expect(logs + stopped.stderr).toContain('"event":"gateway_stopped"');
    await expect(fetch(`${started.url}/healthz`)).rejects.toThrow();
  });

  it.each([
    [["gateway", "--host", "0.0.0.0", "--port", "0"], /Refusing to bind the gateway to 0\.0\.0\.0 without client tokens/],
    [["gateway", "--port", "http"], /--port expects a whole number/],
  ])("R-CL-1: %j exits 2 naming the problem", async (args, message) => {
    const result = await sandbox.run(args, { env: { OPENAI_API_KEY: "sk-gateway-bad-input-0123456789" } });
    expect(result.code, result.stderr).toBe(2);
    expect(result.stderr).toMatch(message);
  });
});

describe("detour mock-provider", () => {
  it("R-CL-3: serves a named scenario on loopback until SIGTERM", async () => {
    const child = sandbox.spawn(["mock-provider", "--scenario", "rate-limited", "--json"]);
    const info = JSON.parse(await waitForLine(child, /^\{"url":/)) as { url: string; scenario: string; baseUrls: { openai: string } };
    expect(info).toMatchObject({ scenario: "rate-limited", baseUrls: { openai: `${info.url}/v1` } });
    const response = await chat(info.url, "mock-gpt");
    expect(response.status).toBe(429);
    const stopped = await stop(child, "SIGTERM");
    expect(stopped.code, stopped.stderr).toBe(0);
    expect(stopped.stderr).toContain("after 1 chat request(s)");
  });

  it("R-CL-3: serves a scenario file (JSON5), starting with its default scenario", async () => {
    const file = sandbox.writeConfig(
      `// two scenarios; the default answers 503 once, then recovers\n{ default: "blip", scenarios: { blip: { rules: [{ steps: ["unavailable"] }] }, calm: { rules: [] } } }`,
      "faults.json5",
    );
    const child = sandbox.spawn(["mock-provider", "--scenario", file]);
    const line = await waitForLine(child, /^Mock provider listening on /);
    const url = /listening on (\S+)/.exec(line)?.[1] ?? "";
    expect(line).toContain("(scenario: blip)");
    expect((await chat(url, "mock-gpt")).status).toBe(503);
    expect((await chat(url, "mock-gpt")).status).toBe(200);
    expect((await stop(child, "SIGINT")).code).toBe(0);
  });

  it.each([
    [
      ["mock-provider", "--scenario", "no-such-scenario"],
      /Unknown mock-provider scenario "no-such-scenario"\. Known scenarios: .*rate-limited/,
    ],
    [["mock-provider", "--scenario", "./missing.json5"], /Cannot read scenario file \.\/missing\.json5/],
    [["mock-provider", "--host", "0.0.0.0"], /--host must be a loopback address/],
  ])("R-CL-3: %j exits 2 naming the problem", async (args, message) => {
    const result = await sandbox.run(args);
    expect(result.code, result.stderr).toBe(2);
    expect(result.stderr).toMatch(message);
  });

  it("R-CL-3: an invalid scenario file exits 2 naming the invalid path", async () => {
    const file = sandbox.writeConfig({ rules: [{ steps: [{ fault: "stall" }] }] }, "bad-faults.json");
    const result = await sandbox.run(["mock-provider", "--scenario", file]);
    expect(result.code, result.stderr).toBe(2);
    expect(result.stderr).toContain("rules[0].steps[0]");
  });
});
