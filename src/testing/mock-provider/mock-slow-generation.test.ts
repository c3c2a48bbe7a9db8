/**
 * The mock provider's R-ST-6 faults: a steady slow generation and a model that refuses to stream; and (R-GW-10)
 * a server that ignores `stream: true`.
 */
import { describe, expect, it } from "vitest";
import { authHeaders, chatBody, jsonText, readAll, streamText } from "./__fixtures__/http-helpers.js";
import { mockPerTest } from "./__fixtures__/mock-per-test.js";
import type { MockProvider } from "./mock-server.js";
import { MOCK_WIRE_APIS, type MockRuleInput, type MockKeyedWireApi } from "./scenario-schema.js";

type Json = Record<string, any>;
const KEY = "sk-slow-generation";

const startMock = mockPerTest();
const start = (rules: MockRuleInput[]) => startMock({ scenario: rules });

function send(server: MockProvider, api: MockKeyedWireApi, stream: boolean) {
  const { path, body } = chatBody(api, { model: "slow-model", prompt: "tell me something", stream });
  return fetch(`${server.url}${path}`, {
    method: "POST",
    headers: { "content-type": "application/json", ...authHeaders(api, KEY) },
    body: JSON.stringify(body),
  });
}

/** When each content-bearing read arrived, relative to the request. */
async function readTimed(response: Response, startedAt: number): Promise<{ text: string; at: number[] }> {
  const reader = (response.body as ReadableStream<Uint8Array>).getReader();
  const decoder = new TextDecoder();
  let text = "";
  const at: number[] = [];
  for (;;) {
    const { done, value } = await reader.read();
    if (done) return { text, at };
    text += decoder.decode(value, { stream: true });
    at.push(Date.now() - startedAt);
  }
}

describe("mock provider slow-generation and stream-unsupported (R-ST-6)", () => {
  for (const api of MOCK_WIRE_APIS) {
    it(`R-ST-6: slow-generation on ${api} streams its tokens steadily, one every tokenDelayMs, lengthened to \`tokens\``, async () => {
      const server = await start([{ steps: [{ fault: "slow-generation", tokenDelayMs: 60, tokens: 8 }] }]);
      const startedAt = Date.now();
      const { text, at } = await readTimed(await send(server, api, true), startedAt);
      const answer = streamText(api, text);
      expect(answer.trim().split(/\s+/)).toHaveLength(8);
      // Seven gaps of 60 ms between eight tokens: the stream keeps producing, it does not arrive in one go.
      expect((at.at(-1) as number) - (at[0] as number)).toBeGreaterThanOrEqual(7 * 60 - 20);
    });

    it(`R-ST-6: slow-generation on ${api} holds a non-streamed answer until its last token, then sends it whole`, async () => {
      const server = await start([{ steps: [{ fault: "slow-generation", tokenDelayMs: 50, tokens: 8 }] }]);
      const startedAt = Date.now();
      const response = await send(server, api, false);
      expect(Date.now() - startedAt).toBeGreaterThanOrEqual(8 * 50 - 20);
      expect(
        jsonText(api, (await response.json()) as Json)
          .trim()
          .split(/\s+/),
      ).toHaveLength(8);
    });

    it(`R-ST-6: stream-unsupported on ${api} answers a stream with a 400 naming stream, a non-streamed request healthily`, async () => {
      const server = await start([{ steps: ["stream-unsupported"], then: "repeat-last" }]);
      const streamed = await send(server, api, true);
      expect(streamed.status).toBe(400);
      expect((await readAll(streamed)).text).toMatch(/'stream' does not support true/);
      const plain = await send(server, api, false);
      expect(plain.status).toBe(200);
      expect(jsonText(api, (await plain.json()) as Json)).not.toBe("");
    });

    it(`R-GW-10: ignores-stream on ${api} answers a stream with the same 200 JSON answer a plain request gets`, async () => {
      const server = await start([{ steps: ["ignores-stream"], then: "repeat-last" }]);
      const streamed = await send(server, api, true);
      expect(streamed.status).toBe(200);
      expect(streamed.headers.get("content-type")).toMatch(/^application\/json/);
      const plain = await send(server, api, false);
      expect(jsonText(api, (await streamed.json()) as Json)).toBe(jsonText(api, (await plain.json()) as Json));
      expect(server.requests().map((request) => request.fault)).toEqual(["ignores-stream", "ignores-stream"]);
    });
  }
});
