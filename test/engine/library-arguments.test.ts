/**
 * The library's entry points, called the way a newcomer gets them wrong: every wrong shape is a
 * DETOUR_INVALID_ARGUMENT naming the field, raised before any provider is called (counted on a real
 * loopback server standing in for OpenAI), never an internal TypeError.
 */
import { createServer, type Server } from "node:http";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createDetour, MemoryStateStore, type Detour } from "../../src/index.js";

let server: Server;
let upstreamCalls = 0;
let detour: Detour;

beforeAll(async () => {
  server = createServer((request, response) => {
    upstreamCalls += 1;
    request.resume();
    response.writeHead(500, { "content-type": "application/json" }).end('{"error":{"message":"should not be called"}}');
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const port = (server.address() as { port: number }).port;
  const store = new MemoryStateStore();
  await store.upsertProfile({ id: "openai:a", credential: { type: "api_key", provider: "openai", key: "sk-library-args-0123456789" } });
  detour = await createDetour({
    config: {
      agents: { defaults: { model: "openai/gpt-5" } },
      models: { providers: { openai: { baseUrl: `http://127.0.0.1:${port}/v1` } } },
    },
    store,
    env: {},
  });
});
afterAll(async () => {
  await detour.close();
  await new Promise((resolve) => server.close(resolve));
});

async function argumentError(call: () => Promise<unknown>): Promise<Error & { code?: string }> {
  try {
    await call();
  } catch (error) {
    return error as Error & { code?: string };
  }
  throw new Error("expected the call to be refused");
}

describe("library argument errors", () => {
  // Calls whose arguments are wrong at run time though a TypeScript user would be warned: `as never` stands
  // for a JavaScript caller or a value that came from JSON.
  it.each<[string, (detour: Detour) => Promise<unknown>, RegExp]>([
    [
      "run with string content",
      (d) => d.run({ request: { messages: [{ role: "user", content: "hi" as never }] } }),
      /detour\.run: request\.messages\[0\]\.content: expected a list of content parts/,
    ],
    ["run without a request", (d) => d.run({} as never), /detour\.run: request: .*\(it is missing\)/],
    [
      "run with messages as a string",
      (d) => d.run({ request: { messages: "hi" as never } }),
      /detour\.run: request\.messages: expected a list of messages/,
    ],
    [
      "run with a role nobody knows",
      (d) => d.run({ request: { messages: [{ role: "human" as never, content: [] }] } }),
      /request\.messages\[0\]\.role/,
    ],
    [
      "run with fallbacks as a string",
      (d) => d.run({ fallbacks: "openai/gpt-4o" as never, request: { messages: [] } }),
      /detour\.run: fallbacks/,
    ],
    ["run with an empty model", (d) => d.run({ model: " ", request: { messages: [] } }), /detour\.run: model/],
    ["embed without a model", (d) => d.embed({ request: { input: "hi" } } as never), /detour\.embed: model: .*\(it is missing\)/],
    [
      "embed without input",
      (d) => d.embed({ model: "openai/text-embedding-3-small", request: {} } as never),
      /detour\.embed: request\.input/,
    ],
    ["countTokens without a body", (d) => d.countTokens({} as never), /detour\.countTokens: body/],
    [
      "runWith with a numeric session key",
      (d) => d.runWith({ sessionKey: 7 as never, attempt: async () => "x" }),
      /detour\.runWith: sessionKey/,
    ],
    [
      "sessions.get without a key",
      (d) => d.sessions.get(undefined as never),
      /detour\.sessions\.get: sessionKey: expected a non-empty string/,
    ],
    ["sessions.patch with a numeric model", (d) => d.sessions.patch("s1", { model: 5 as never }), /detour\.sessions\.patch: model/],
    ["profiles.reset without an id", (d) => d.profiles.reset("" as never), /detour\.profiles\.reset: profileId/],
    ["status with a numeric agent", (d) => d.status({ agentId: 1 as never }), /detour\.status: agentId/],
  ])("library API: %s is DETOUR_INVALID_ARGUMENT naming the field, with no provider call", async (_name, call, message) => {
    const error = await argumentError(() => call(detour));
    expect(error.code).toBe("DETOUR_INVALID_ARGUMENT");
    expect(error.message).toMatch(message);
    expect(error).not.toBeInstanceOf(TypeError);
    expect(upstreamCalls).toBe(0);
  });

  it("library API: a well-formed call still reaches the provider", async () => {
    const error = await argumentError(() =>
      detour.run({ request: { messages: [{ role: "user", content: [{ type: "text", text: "hi" }] }] } }),
    );
    expect(error.code).not.toBe("DETOUR_INVALID_ARGUMENT");
    expect(upstreamCalls).toBeGreaterThan(0);
  });
});
