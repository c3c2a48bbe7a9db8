/**
 * A kept cloud access token the upstream refuses (401: revoked, rotated, expired early) is forgotten at once:
 * the next call fetches a new one instead of failing with the same token until its stated expiry.
 */
import { generateKeyPairSync } from "node:crypto";
import { afterEach, describe, expect, it } from "vitest";
import { UpstreamFailure } from "../../ports/provider.js";
import { startMockProvider, type MockProvider } from "../../testing/mock-provider/index.js";
import { openPassThrough, readPassThroughBody } from "../shared/pass-through-call.js";
import { simpleRequest } from "../shared/__fixtures__/canonical-requests.js";
import type { ProviderSettings } from "../shared/provider-settings.js";
import { HttpProvider } from "../http-provider.js";
import { createProvider } from "../registry.js";
import { sameWireTargetOf } from "../same-wire-targets.js";

const { privateKey } = generateKeyPairSync("rsa", { modulusLength: 2048 });
const credential = {
  type: "api_key" as const,
  provider: "vertex",
  key: JSON.stringify({
    type: "service_account",
    client_email: "detour-test@proj.iam.gserviceaccount.com",
    private_key: privateKey.export({ type: "pkcs8", format: "pem" }).toString(),
    private_key_id: "key-1",
  }),
};

let mock: MockProvider | undefined;
afterEach(async () => {
  await mock?.close();
  mock = undefined;
});

function settingsFor(provider: MockProvider): ProviderSettings {
  return {
    id: "vertex",
    api: "vertex",
    baseUrl: `${provider.url}/v1`,
    vertex: { project: "proj", location: "us-east5", publisher: "anthropic", tokenUrl: `${provider.url}/token` },
  };
}

const context = () => ({ model: "claude-sonnet-4-6", credential, signal: new AbortController().signal });

async function statusOf(call: Promise<unknown>): Promise<number | undefined> {
  try {
    await call;
    return 200;
  } catch (error) {
    if (error instanceof UpstreamFailure) return error.failure.status;
    throw error;
  }
}

describe("a refused cloud access token", () => {
  it("R-AP-5: a 401 on a kept token drops it, so the next call fetches a new token and succeeds", async () => {
    mock = await startMockProvider({ scenario: "healthy" });
    const provider = createProvider(settingsFor(mock)) as HttpProvider;
    expect(await statusOf(provider.complete(simpleRequest, context()))).toBe(200);
    mock.revokeTokens();
    expect(await statusOf(provider.complete(simpleRequest, context()))).toBe(401);
    expect(await statusOf(provider.complete(simpleRequest, context()))).toBe(200);
    expect(mock.tokenGrants()).toHaveLength(2);
  });

  it("R-AP-5: the same-wire lane drops a refused token too", async () => {
    mock = await startMockProvider({ scenario: "healthy" });
    const provider = createProvider(settingsFor(mock)) as HttpProvider;
    const lane = sameWireTargetOf(provider, { id: "vertex", api: "vertex", baseUrl: `${mock.url}/v1` });
    const target = lane!.target(credential, false, { "anthropic-version": "2023-06-01" }, "claude-sonnet-4-6");
    const body = Buffer.from(JSON.stringify({ model: "claude-sonnet-4-6", max_tokens: 64, messages: [{ role: "user", content: "hi" }] }));
    const call = async () => {
      const signal = new AbortController().signal;
      const response = await openPassThrough(target, body, { signal });
      await readPassThroughBody(target, response, signal);
    };
    expect(await statusOf(call())).toBe(200);
    mock.revokeTokens();
    expect(await statusOf(call())).toBe(401);
    expect(await statusOf(call())).toBe(200);
    expect(mock.tokenGrants()).toHaveLength(2);
  });
});
