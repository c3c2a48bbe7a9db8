import { describe, expect, it } from "vitest";
import type { CanonicalRequest } from "../ports/canonical.js";
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

  it.each(["/new idea for a story", "please /status", "/models", "/statusx", "hello"])(
    "R-GW-3: %j is ordinary text",
    (text) => {
      expect(parseSlashCommand(said(text))).toBeUndefined();
    },
  );

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
