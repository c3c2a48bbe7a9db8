/**
 * A newcomer's first gateway: no config, only OPENAI_API_KEY. The banner names what it runs on and says
 * exactly what to write for `"model": "detour"`; the 400 such a request gets says the same; a person at a
 * terminal reads pretty log lines, a pipe gets JSON. In process, over real HTTP on loopback, with the
 * official OpenAI SDK as the client.
 */
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import OpenAI from "openai";
import { afterAll, describe, expect, it, vi } from "vitest";
import { createStderrLogger } from "../../src/cli/stderr-logger.js";
import { gatewayListening, runCliInProcess } from "./helpers/in-process-cli.js";

// The first start imports the whole gateway stack, which takes long on a loaded machine.
vi.setConfig({ testTimeout: 180_000 });

const dirs: string[] = [];
afterAll(() => {
  for (const dir of dirs) rmSync(dir, { recursive: true, force: true });
});

interface Started {
  url: string;
  stdout: () => string;
  stderr: () => string;
  stop: () => Promise<number>;
}

async function startGateway(args: string[], options: { tty: boolean }): Promise<Started> {
  const home = mkdtempSync(join(tmpdir(), "detour-newcomer-"));
  dirs.push(home);
  const cli = runCliInProcess(["gateway", "--port", "0", ...args], {
    // No config anywhere (cwd and DETOUR_HOME are empty), one provider key, and no local Ollama.
    env: { NO_COLOR: "1", DETOUR_HOME: home, OPENAI_API_KEY: "sk-newcomer-0123456789", OLLAMA_HOST: "127.0.0.1:9" },
    cwd: home,
    stderrIsTTY: options.tty,
  });
  return {
    url: await gatewayListening(cli),
    stdout: cli.stdout,
    stderr: cli.stderr,
    stop: async () => {
      cli.stop();
      return cli.exit;
    },
  };
}

describe("the first gateway of a newcomer (no config, only OPENAI_API_KEY)", () => {
  it("the banner names the config, the store and the agent, and says what to write for model detour", async () => {
    const gateway = await startGateway([], { tty: false });
    try {
      const banner = gateway.stdout();
      expect(banner).toContain(`Dashboard:         ${gateway.url}/`);
      expect(banner).toContain("Config file:       none found");
      expect(banner).toMatch(/Store: +SQLite, one file per agent: .*detour-agent\.sqlite/);
      expect(banner).toContain("Agent main:        no model chain");
      expect(banner).toContain("Credential:        openai:env from $OPENAI_API_KEY");
      expect(banner).toContain('agents: { defaults: { model: { primary: "openai/gpt-5" } } }');
      expect(banner).not.toMatch(/\bR-[A-Z]{2}-\d+/);
    } finally {
      expect(await gateway.stop()).toBe(0);
    }
  });

  it("a request for model detour gets a 400 that says exactly what to write, and calls no provider", async () => {
    const gateway = await startGateway([], { tty: false });
    try {
      const client = new OpenAI({ baseURL: `${gateway.url}/v1`, apiKey: "unused-on-loopback", maxRetries: 0 });
      const failure = await client.chat.completions.create({ model: "detour", messages: [{ role: "user", content: "Hello" }] }).then(
        () => undefined,
        (error: unknown) => error,
      );
      expect(failure).toBeInstanceOf(OpenAI.APIError);
      const error = failure as InstanceType<typeof OpenAI.APIError>;
      expect(error.status).toBe(400);
      expect(error.message).toContain('name one as "provider/model"');
      expect(error.message).toContain("agents: { defaults: { model: { primary: ");
      expect(gateway.stderr()).not.toContain('"event":"attempt');
    } finally {
      await gateway.stop();
    }
  });

  it("logs pretty lines on a terminal and JSON lines otherwise, and --log-format chooses either way", async () => {
    const onTerminal = await startGateway([], { tty: true });
    await onTerminal.stop();
    expect(onTerminal.stderr()).toMatch(/^\d\d:\d\d:\d\d INFO  Detour gateway listening on http:\/\/127\.0\.0\.1:\d+$/m);
    expect(onTerminal.stderr()).not.toContain('"level"');

    const piped = await startGateway([], { tty: false });
    await piped.stop();
    expect(piped.stderr()).toContain('"msg":"Detour gateway listening on');

    const jsonOnTerminal = await startGateway(["--log-format", "json"], { tty: true });
    await jsonOnTerminal.stop();
    expect(jsonOnTerminal.stderr()).toContain('"msg":"Detour gateway listening on');

    const prettyPiped = await startGateway(["--log-format", "pretty"], { tty: false });
    await prettyPiped.stop();
    expect(prettyPiped.stderr()).toMatch(/^\d\d:\d\d:\d\d INFO  Detour gateway listening on/m);
  });
});

describe("the pretty log line", () => {
  it("shows time, level, message and every field, with secret-named fields censored", () => {
    let written = "";
    const logger = createStderrLogger(
      { write: (chunk: string) => (written += chunk) },
      "info",
      "pretty",
      () => new Date("2026-12-02T08:04:05Z"),
    );
    logger.log("debug", "dropped below the level");
    logger.log("info", "request", { event: "request", status: 200, model: "openai/gpt-5", path: "/v1/chat/completions", ms: 812 });
    logger.log("warn", "odd", { note: "two words", key: "sk-secret", nested: { token: "t-secret", kept: 1 } });
    expect(written.split("\n")).toEqual([
      "08:04:05 INFO  request event=request status=200 model=openai/gpt-5 path=/v1/chat/completions ms=812",
      '08:04:05 WARN  odd note="two words" key=[redacted] nested={"token":"[redacted]","kept":1}',
      "",
    ]);
  });
});
