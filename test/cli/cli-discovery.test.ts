/**
 * R-CF-5 through the CLI: with no config and no stored profiles, provider variables become `<provider>:env`
 * profiles and a local Ollama that answers is used; with nothing at all, one paragraph and a non-zero exit.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { fingerprintKey, startMockProvider, type MockProvider } from "../../src/testing/mock-provider/index.js";
import { ensureBuilt } from "./helpers/build.js";
import { createSandbox, type Sandbox } from "./helpers/run-detour.js";

const ENV_KEY = "sk-discovery-env-key-0123456789abcd";

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

describe("R-CF-5 credential discovery", () => {
  it("R-CF-5: with nothing at all, run and gateway print one paragraph with the three ways, exit 1", async () => {
    for (const args of [
      ["run", "hello"],
      ["gateway", "--port", "0"],
    ]) {
      const result = await sandbox.run(args);
      expect(result.code, args[0]).toBe(1);
      expect(result.stdout, args[0]).toBe("");
      const paragraph = result.stderr.trim();
      expect(paragraph.split("\n"), args[0]).toHaveLength(1);
      expect(paragraph).toContain("export OPENAI_API_KEY=");
      expect(paragraph).toContain("detour auth add openai --key -");
      expect(paragraph).toContain("detour.json5");
    }
  });

  it("R-CL-1: a --model naming an unknown provider is bad input (exit 2), reported before missing credentials", async () => {
    const result = await sandbox.run(["run", "hello", "--model", "acme/gpt-9"]);
    expect(result.code, result.stderr).toBe(2);
    expect(result.stderr).toContain('unknown provider "acme"; known providers: ');
    expect(result.stderr).not.toContain("no credential");
  });

  it("R-CF-5: OPENAI_API_KEY becomes the profile openai:env when nothing is configured or stored", async () => {
    // A config that only points the built-in provider at the mock: no auth.profiles, so discovery applies.
    const config = sandbox.writeConfig(
      { models: { providers: { openai: { baseUrl: `${mock.url}/v1` } } }, agents: { defaults: { model: "openai/mock-gpt" } } },
      "discovery.json5",
    );
    const env = { OPENAI_API_KEY: ENV_KEY };
    const run = await sandbox.run(["--config", config, "run", "hello", "--json"], { env });
    expect(run.code, run.stderr).toBe(0);
    expect(JSON.parse(run.stdout)).toMatchObject({ provider: "openai", model: "mock-gpt", profileId: "openai:env" });
    expect(mock.requests().at(-1)?.keyFingerprint).toBe(fingerprintKey(ENV_KEY));

    const status = await sandbox.run(["--config", config, "status", "--json"], { env });
    const profiles = (JSON.parse(status.stdout) as { profiles: { id: string; origin: string }[] }).profiles;
    expect(profiles).toEqual([expect.objectContaining({ id: "openai:env", origin: "env" })]);
    expect(`${run.stdout}${run.stderr}${status.stdout}${status.stderr}`).not.toContain(ENV_KEY);
  });

  it("R-CF-5: a local Ollama at OLLAMA_HOST answers a run with no config, no key and no --model", async () => {
    const ollamaHost = mock.url.replace(/^http:\/\//, "");
    const result = await sandbox.run(["run", "hello", "--json", "--verbose"], { env: { OLLAMA_HOST: ollamaHost } });
    expect(result.code, result.stderr).toBe(0);
    expect(JSON.parse(result.stdout)).toMatchObject({ provider: "ollama", model: "mock-gpt", profileId: null });
    expect(result.stderr).toContain(`Using the local Ollama at ${mock.url}.`);
    expect(mock.requests().at(-1)).toMatchObject({ api: "ollama", model: "mock-gpt" });
  });

  it("R-CF-5: a key variable without any model names what was found and exits 2", async () => {
    const result = await sandbox.run(["run", "hello"], { env: { ANTHROPIC_API_KEY: "sk-ant-discovery-0123456789" } });
    expect(result.code, result.stderr).toBe(2);
    expect(result.stderr).toContain("No model is selected: pass --model provider/model (credentials found for: anthropic)");
  });
});
