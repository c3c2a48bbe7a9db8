import { describe, expect, it } from "vitest";
import type { CanonicalRequest } from "../ports/canonical.js";
import { httpError, success } from "../testing/scripted-provider.js";
import { BASE_CONFIG, gatewayPerTest, openAIBody, type TestGateway } from "./__fixtures__/test-gateway.js";
import { parseSlashCommand, splitModelArgument } from "./slash-commands.js";

const said = (...texts: string[]): CanonicalRequest => ({
  messages: texts.map((text, index) => ({
    role: index % 2 === 0 ? ("user" as const) : ("assistant" as const),
    content: [{ type: "text" as const, text }],
  })),
});

describe("parseSlashCommand", () => {
  it.each([
    ["/status", { name: "status" }],
    [" /new ", { name: "new" }],
    ["/reset", { name: "reset" }],
    ["/model", { name: "model" }],
    ["/model anthropic/claude-b@anthropic:work", { name: "model", argument: "anthropic/claude-b@anthropic:work" }],
  ])("R-GW-3: %j is a command", (text, expected) => {
    expect(parseSlashCommand(said(text))).toEqual(expected);
  });

  it.each(["/new idea for a story", "please /status", "/models", "/statusx", "hello"])("R-GW-3: %j is ordinary text", (text) => {
    expect(parseSlashCommand(said(text))).toBeUndefined();
  });

  it("R-GW-3: only the whole last user message counts", () => {
    expect(parseSlashCommand(said("/status", "here it is"))).toBeUndefined();
    expect(parseSlashCommand(said("hi", "hello", "/status"))).toEqual({ name: "status" });
    const withImage: CanonicalRequest = {
      messages: [
        {
          role: "user",
          content: [
            { type: "text", text: "/status" },
            { type: "image", source: { kind: "url", url: "http://127.0.0.1/x.png" } },
          ],
        },
      ],
    };
    expect(parseSlashCommand(withImage)).toBeUndefined();
  });
});

describe("splitModelArgument", () => {
  it.each([
    ["openai/gpt-5", { model: "openai/gpt-5" }],
    ["openai/gpt-5@openai:work", { model: "openai/gpt-5", profile: "openai:work" }],
    ["anthropic/claude@anthropic:me@example.com", { model: "anthropic/claude", profile: "anthropic:me@example.com" }],
    ["vertex/claude-3@20240229", { model: "vertex/claude-3@20240229" }],
  ])("R-GW-3: %j", (argument, expected) => {
    expect(splitModelArgument(argument)).toEqual(expected);
  });
});

describe("/status and /model after a choice", () => {
  const start = gatewayPerTest();
  const ask = async (app: TestGateway["app"], text: string) =>
    (
      await app.inject({
        method: "POST",
        url: "/v1/chat/completions",
        headers: { "x-detour-session": "s-choice" },
        payload: openAIBody(text),
      })
    ).json().choices[0].message.content as string;

  it("R-CH-2 a model the user chose is strict: /model never lists it, or any model, as a fallback", async () => {
    const { app } = await start();
    expect(await ask(app, "/status")).toContain("Fallbacks: anthropic/claude-b");
    expect(await ask(app, "/model anthropic/claude-b")).toContain("Model set to anthropic/claude-b");
    const shown = await ask(app, "/model");
    expect(shown).toContain("Model: anthropic/claude-b (chosen for this session)");
    expect(shown).not.toMatch(/Fallbacks: .*anthropic\/claude-b/);
    expect(shown).toContain("Fallbacks: none");
  });

  it("R-CH-2 on an automatic fallback, the fallbacks shown are the configured ones other than the one in use", async () => {
    const { app, openai, anthropic } = await start({
      config: {
        ...BASE_CONFIG,
        agents: {
          ...BASE_CONFIG.agents,
          defaults: {
            ...BASE_CONFIG.agents?.defaults,
            model: { primary: "openai/gpt-a", fallbacks: ["anthropic/claude-b", "openai/gpt-c"] },
          },
        },
      },
    });
    openai.always({ model: "gpt-a" }, httpError(429, "rate limit exceeded"));
    anthropic.always({}, success("from claude"));
    expect(await ask(app, "hi")).toBe("from claude");
    const shown = await ask(app, "/status");
    expect(shown).toContain("Active fallback: anthropic/claude-b");
    expect(shown).toContain("Fallbacks: openai/gpt-c");
    expect(shown).not.toMatch(/Fallbacks: .*anthropic\/claude-b/);
  });
});
