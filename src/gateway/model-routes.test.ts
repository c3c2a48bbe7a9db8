import Anthropic from "@anthropic-ai/sdk";
import OpenAI from "openai";
import { describe, expect, it } from "vitest";
import { estimateInputTokens } from "../core/fit.js";
import { gatewayPerTest } from "./__fixtures__/test-gateway.js";

const start = gatewayPerTest();

async function listening() {
  const gateway = await start();
  await gateway.app.listen({ host: "127.0.0.1", port: 0 });
  const address = gateway.app.server.address();
  const port = typeof address === "object" && address !== null ? address.port : 0;
  return { ...gateway, url: `http://127.0.0.1:${port}` };
}

describe("GET /v1/models/:id", () => {
  it("answers the OpenAI shape to the openai SDK, `provider/model` ids and aliases included", async () => {
    const { url } = await listening();
    const client = new OpenAI({ baseURL: `${url}/v1`, apiKey: "sk-unused-0123456789", maxRetries: 0 });
    expect(await client.models.retrieve("openai/gpt-a")).toMatchObject({ id: "openai/gpt-a", object: "model", owned_by: "openai" });
    expect(await client.models.retrieve("claude")).toMatchObject({ id: "claude", object: "model", owned_by: "anthropic" });
    expect(await client.models.retrieve("detour")).toMatchObject({ id: "detour", owned_by: "detour" });
  });

  it("an unknown id is a 404 in the OpenAI error shape", async () => {
    const { url } = await listening();
    const client = new OpenAI({ baseURL: `${url}/v1`, apiKey: "sk-unused-0123456789", maxRetries: 0 });
    const error = await client.models.retrieve("openai/not-configured").catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(OpenAI.NotFoundError);
    expect((error as InstanceType<typeof OpenAI.NotFoundError>).error).toMatchObject({
      code: "DETOUR_NOT_FOUND",
      message: expect.stringContaining("openai/not-configured"),
    });
  });

  it("answers Anthropic's shape, and Anthropic's 404 shape, to the Anthropic SDK", async () => {
    const { url } = await listening();
    const client = new Anthropic({ baseURL: url, apiKey: "sk-ant-unused-0123456789", maxRetries: 0 });
    expect(await client.models.retrieve("anthropic/claude-b")).toMatchObject({
      type: "model",
      id: "anthropic/claude-b",
      display_name: "anthropic/claude-b",
    });
    const error = await client.models.retrieve("nope").catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(Anthropic.NotFoundError);
    expect((error as InstanceType<typeof Anthropic.NotFoundError>).error).toMatchObject({
      type: "error",
      error: { type: "not_found_error" },
    });
  });
});

describe("POST /v1/messages/count_tokens", () => {
  it("answers { input_tokens } with the documented estimate and says it is one", async () => {
    const { url, app } = await listening();
    const client = new Anthropic({ baseURL: url, apiKey: "sk-ant-unused-0123456789", maxRetries: 0 });
    const text = "Count the tokens of this sentence, please.";
    const system = "You are terse.";
    const counted = await client.messages.countTokens({ model: "anthropic/claude-b", system, messages: [{ role: "user", content: text }] });
    expect(counted.input_tokens).toBe(
      estimateInputTokens({ textCharacters: text.length + system.length, images: 0, toolDefinitions: 0, messages: 1 }),
    );

    const raw = await app.inject({
      method: "POST",
      url: "/v1/messages/count_tokens",
      payload: { model: "detour", messages: [{ role: "user", content: text }] },
    });
    expect(raw.statusCode).toBe(200);
    expect(raw.headers["x-detour-estimate"]).toBe("true");
  });

  it("a body that is not a Messages request is a 400 in Anthropic's error shape", async () => {
    const { app } = await listening();
    const response = await app.inject({ method: "POST", url: "/v1/messages/count_tokens", payload: { model: "detour" } });
    expect(response.statusCode).toBe(400);
    expect(response.json()).toMatchObject({ type: "error", error: { type: "invalid_request_error" } });
  });
});
