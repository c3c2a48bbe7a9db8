/**
 * Which attempt continues a cut stream (R-ST-4) when the user made a choice: a model the user chose (R-CH-2,
 * strict) is continued only on that model — its other keys — and never on another model; a profile the user
 * pinned (R-PO-6, strict) is never rotated away from, so its stream moves on to the next model when model
 * fallbacks apply, exactly as a failure before the first token would.
 */
import { describe, expect, it } from "vitest";
import { cut, success } from "../testing/scripted-provider.js";
import { gatewayPerTest, openAIBody, sseEvents } from "./__fixtures__/test-gateway.js";

const start = gatewayPerTest();

function streamedText(body: string): { text: string; done: boolean; error: boolean } {
  const events = sseEvents(body);
  const chunks = events.filter((event) => event.data !== "[DONE]").map((event) => JSON.parse(event.data));
  return {
    text: chunks.map((chunk) => chunk.choices?.[0]?.delta?.content ?? "").join(""),
    done: events.at(-1)?.data === "[DONE]",
    error: chunks.some((chunk) => chunk.error),
  };
}

describe("a cut stream after a user's choice", () => {
  it("R-CH-2 a model the user chose is continued on its other key, never on another model", async () => {
    const { app, openai, anthropic } = await start();
    const headers = { "x-detour-session": "s-strict-model" };
    await app.inject({ method: "POST", url: "/v1/chat/completions", headers, payload: openAIBody("/model openai/gpt-a") });
    openai.script({ profileId: "openai:a" }, cut("Hello wor"));
    openai.script({ profileId: "openai:b" }, success("Hello world, friend."));
    anthropic.always({}, success("Hello world, from claude."));
    const response = await app.inject({
      method: "POST",
      url: "/v1/chat/completions",
      headers,
      payload: openAIBody("hi", { stream: true }),
    });
    expect(streamedText(response.body)).toEqual({ text: "Hello world, friend.", done: true, error: false });
    expect(openai.calls.map((call) => call.profileId)).toEqual(["openai:a", "openai:b"]);
    expect(anthropic.calls).toHaveLength(0);
  });

  it("R-CH-2 when every key of the chosen model is cut, the stream ends with its error instead of moving to another model", async () => {
    const { app, openai, anthropic } = await start();
    const headers = { "x-detour-session": "s-strict-cut" };
    await app.inject({ method: "POST", url: "/v1/chat/completions", headers, payload: openAIBody("/model openai/gpt-a") });
    openai.always({}, cut("Hello wor"));
    anthropic.always({}, success("Hello world, from claude."));
    const response = await app.inject({
      method: "POST",
      url: "/v1/chat/completions",
      headers,
      payload: openAIBody("hi", { stream: true }),
    });
    expect(streamedText(response.body)).toMatchObject({ done: false, error: true });
    expect(anthropic.calls).toHaveLength(0);
  });

  it("R-PO-6 a profile the user pinned is never left for its sibling key: with model fallbacks the cut stream moves to the next model", async () => {
    const { app, openai, anthropic } = await start();
    const pinned = await app.inject({ method: "PATCH", url: "/admin/sessions/s-user-pin", payload: { profile: "openai:b" } });
    expect(pinned.statusCode).toBe(200);
    openai.script({ profileId: "openai:b" }, cut("Hello wor"));
    openai.script({ profileId: "openai:a" }, success("Hello world, friend."));
    anthropic.always({}, success("Hello world, from claude."));
    const response = await app.inject({
      method: "POST",
      url: "/v1/chat/completions",
      headers: { "x-detour-session": "s-user-pin" },
      payload: openAIBody("hi", { stream: true }),
    });
    expect(streamedText(response.body)).toMatchObject({ done: true, error: false });
    expect(openai.calls.map((call) => call.profileId)).toEqual(["openai:b"]);
    expect(anthropic.calls).toHaveLength(1);
  });
});
