import { describe, expect, it } from "vitest";
import { success } from "../testing/scripted-provider.js";
import { gatewayPerTest, openAIBody } from "./__fixtures__/test-gateway.js";

const start = gatewayPerTest();

describe("a session's profile pin per provider", () => {
  it("R-PO-5 one request naming another provider's model does not end the pin of the session's own provider", async () => {
    const { app, openai, anthropic } = await start();
    openai.always({}, success("from gpt"));
    anthropic.always({}, success("from claude"));
    const headers = { "x-detour-session": "s-pins" };
    const turn = (model?: string) =>
      app.inject({ method: "POST", url: "/v1/chat/completions", headers, payload: openAIBody("hi", model ? { model } : {}) });

    const first = await turn();
    const pinned = first.headers["x-detour-profile"];
    expect(pinned).toMatch(/^openai:/);
    const elsewhere = await turn("anthropic/claude-b");
    expect(elsewhere.headers["x-detour-profile"]).toBe("anthropic:a");
    for (let index = 0; index < 3; index += 1) {
      expect((await turn()).headers["x-detour-profile"]).toBe(pinned);
      expect((await turn("anthropic/claude-b")).headers["x-detour-profile"]).toBe("anthropic:a");
    }
    const session = (await app.inject({ method: "GET", url: "/admin/sessions/s-pins" })).json().session;
    expect(session.authProfileOverride).toBe("anthropic:a");
  });
});
