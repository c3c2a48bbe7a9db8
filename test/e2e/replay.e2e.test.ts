/**
 * R-OB-5 over runs recorded by the real gateway: the gateway (SQLite state, run traces on) sends requests of
 * the official `openai` client to a fault-injecting mock provider; `detour trace export` writes the traces;
 * `detour replay` replays them. With the config that recorded them the counts come out exactly as recorded,
 * and a config that adds a fallback answers the runs that failed.
 */
import { randomBytes } from "node:crypto";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { PassThrough } from "node:stream";
import OpenAI from "openai";
import { afterEach, describe, expect, it } from "vitest";
import { runCli } from "../../src/cli/run-cli.js";
import type { DetourConfigInput } from "../../src/config/index.js";
import { parseRunTraceLine } from "../../src/core/run-trace.js";
import { summarizeRuns } from "../../src/engine/replay/index.js";
import { startGateway } from "../../src/gateway/start-gateway.js";
import { startMockProvider, type MockScenarioInput } from "../../src/testing/mock-provider/index.js";
import { REPLAY_REPORT_KEYS } from "../fixtures/replay-report-keys.js";
import { CLIENT_TOKEN, KEYS, harnessConfig } from "./fixtures/gateway-harness.js";

const directories: string[] = [];
const closers: (() => Promise<void>)[] = [];
afterEach(async () => {
  for (const close of closers.splice(0).reverse()) await close();
  for (const directory of directories.splice(0)) rmSync(directory, { recursive: true, force: true });
});

/** Key A answers 429 (Retry-After 1 s) three times, then 500s twice; key B is overloaded now and then. */
const FAULTS: MockScenarioInput = {
  rules: [
    {
      match: { key: KEYS.openaiA },
      steps: [
        { fault: "rate-limit", retryAfterSeconds: 1, times: 3 },
        { fault: "server-error", times: 2 },
        "ok",
        { fault: "rate-limit", retryAfterSeconds: 1, times: 2 },
      ],
      then: "ok",
    },
    { match: { key: KEYS.openaiB }, steps: [{ fault: "overloaded", times: 4 }, "ok", { fault: "server-error", times: 3 }], then: "ok" },
    { steps: ["ok"] },
  ],
};

async function cli(args: string[], env: Record<string, string>, cwd: string): Promise<{ code: number; stdout: string; stderr: string }> {
  let stdout = "";
  let stderr = "";
  const code = await runCli(args, {
    stdout: { write: (chunk: string) => (stdout += chunk) },
    stderr: { write: (chunk: string) => (stderr += chunk) },
    stdin: new PassThrough(),
    env,
    cwd,
    waitForShutdown: () => new Promise(() => undefined),
  });
  return { code, stdout, stderr };
}

describe("replay of traces recorded through the gateway", () => {
  it("R-OB-5 the recording's own config reproduces the recorded counts exactly; adding a fallback answers the failed runs", async () => {
    const home = mkdtempSync(join(tmpdir(), "detour-replay-e2e-"));
    directories.push(home);
    const mock = await startMockProvider({ scenario: FAULTS, models: ["mock-gpt", "mock-claude"] });
    closers.push(() => mock.close());
    const base = harnessConfig(mock.url, { model: { primary: "openai/mock-gpt", fallbacks: [] } });
    const recording: DetourConfigInput = { ...base, state: { backend: "sqlite" } };
    const withFallback: DetourConfigInput = {
      ...recording,
      agents: { defaults: { ...recording.agents!.defaults, model: { primary: "openai/mock-gpt", fallbacks: ["anthropic/mock-claude"] } } },
    };
    writeFileSync(join(home, "detour.json5"), JSON.stringify(recording));
    writeFileSync(join(home, "with-fallback.json5"), JSON.stringify(withFallback));
    const env = {
      DETOUR_HOME: home,
      DETOUR_SECRET_KEY: randomBytes(32).toString("base64"),
      NO_COLOR: "1",
      E2E_OPENAI_A: KEYS.openaiA,
      E2E_OPENAI_B: KEYS.openaiB,
      E2E_ANTHROPIC_A: KEYS.anthropicA,
    };

    const gateway = await startGateway({ config: recording, port: 0, env });
    const client = new OpenAI({ baseURL: `${gateway.url}/v1`, apiKey: CLIENT_TOKEN, maxRetries: 0, timeout: 10_000 });
    const outcomes: string[] = [];
    for (let index = 0; index < 16; index += 1) {
      const request = {
        model: "openai/mock-gpt",
        messages: [{ role: "user" as const, content: `question ${index}` }],
        user: `user-${index % 3}`,
      };
      try {
        if (index % 4 === 3) {
          let text = "";
          for await (const chunk of await client.chat.completions.create({ ...request, stream: true }))
            text += chunk.choices[0]?.delta.content ?? "";
          outcomes.push(text ? "answered" : "empty");
        } else {
          await client.chat.completions.create(request);
          outcomes.push("answered");
        }
      } catch {
        outcomes.push("failed");
      }
      // A second passes now and then, so some runs find key A's stated reset over and call it again.
      if (index % 5 === 4) await new Promise((resolve) => setTimeout(resolve, 1_100));
    }
    await gateway.close();
    expect(outcomes).toContain("failed");
    expect(outcomes).toContain("answered");

    const exported = await cli(["trace", "export"], env, home);
    expect(exported.code).toBe(0);
    const lines = exported.stdout.split("\n").filter(Boolean);
    expect(lines).toHaveLength(16);
    const traces = lines.map((line, index) => parseRunTraceLine(line, index + 1));
    // The request facts only the gateway knows: the client's wire format and whether it streamed.
    expect(traces.map((trace) => trace.request.stream)).toEqual(Array.from({ length: 16 }, (_, index) => index % 4 === 3));
    expect(new Set(traces.map((trace) => trace.request.dialect))).toEqual(new Set(["openai-chat"]));
    const recorded = summarizeRuns("detour.json5", traces);
    expect(recorded.failed).toBe(outcomes.filter((outcome) => outcome === "failed").length);
    expect(recorded.upstream429).toBeGreaterThan(0);
    expect(recorded.upstream5xx).toBeGreaterThan(0);
    const file = join(home, "runs.jsonl");
    writeFileSync(file, exported.stdout);

    const replayed = await cli(["replay", file, "--config", join(home, "with-fallback.json5"), "--json"], env, home);
    expect(replayed.stderr).toBe("");
    expect(replayed.code).toBe(0);
    const report = JSON.parse(replayed.stdout) as { configs: Record<string, unknown>[] };
    expect(report.configs.map((config) => config.name)).toEqual(["detour.json5", "with-fallback.json5"]);
    for (const config of report.configs) {
      expect(Object.keys(config)).toEqual(REPLAY_REPORT_KEYS);
    }
    const [own, other] = report.configs as unknown as (typeof recorded)[];
    const counts = ({ addedWaitMsP50: _p50, addedWaitMsP99: _p99, ...rest }: typeof recorded) => rest;
    expect(counts(own!)).toEqual(counts(recorded));
    expect(other!.failed).toBe(0);
    expect(other!.answered).toBe(16);
    expect(other!.notices).toBeGreaterThan(0);

    // Same inputs, same report.
    const again = await cli(["replay", file, "--config", join(home, "with-fallback.json5"), "--json"], env, home);
    expect(again.stdout).toBe(replayed.stdout);
  }, 60_000);
});
