/**
 * The one HTTP provider's own seams: a quirk's signing step sees the request's final bytes and what it returns
 * is what goes out, on the canonical path and on the same-wire lane's raw call to the same endpoint alike — the hook cloud
 * providers (SigV4, fetched bearer tokens) are built on.
 */
import { createHash } from "node:crypto";
import { describe, expect, it } from "vitest";
import { simpleRequest } from "./shared/__fixtures__/canonical-requests.js";
import { readJsonFixture, serverPerTest } from "./shared/__fixtures__/loopback-server.js";
import { HttpProvider } from "./http-provider.js";
import { ollamaQuirks } from "./ollama/quirks.js";
import { openPassThrough, readPassThroughBody, type OutgoingRequest } from "./shared/pass-through-call.js";
import { passThroughTargetOf, type ProviderQuirks } from "./shared/provider-quirks.js";

const serve = serverPerTest();
const answer = () => readJsonFixture(new URL("./ollama/x", import.meta.url).href, "chat-text.json");

function sha256(bytes: Buffer | string): string {
  return createHash("sha256").update(bytes).digest("hex");
}

/** Ollama's endpoint with a signing step: a digest of the bytes in a header, and a query the signer adds. */
function signedQuirks(seen: OutgoingRequest[]): ProviderQuirks {
  return {
    api: "ollama",
    endpoint(settings) {
      return {
        ...ollamaQuirks.endpoint(settings),
        async sign(request) {
          seen.push(request);
          return {
            url: `${request.url}?signed=1`,
            headers: { ...request.headers, "x-body-sha256": sha256(request.body) },
            body: request.body,
          };
        },
      };
    },
  };
}

const context = () => ({ model: "llama3.2", signal: new AbortController().signal });

describe("HttpProvider: a quirk's signing step", () => {
  it("signs the canonical call over the bytes that are sent, and the signed request is what goes out", async () => {
    const upstream = await serve({ kind: "json", body: answer() });
    const seen: OutgoingRequest[] = [];
    const provider = new HttpProvider({ id: "signed", api: "ollama", baseUrl: upstream.url }, signedQuirks(seen));
    const response = await provider.complete(simpleRequest, context());
    expect(response.finishReason).toBe("stop");
    const [request] = upstream.requests;
    expect(request?.url).toBe("/api/chat?signed=1");
    expect(seen).toHaveLength(1);
    expect(seen[0]?.headers["content-type"]).toBe("application/json");
    expect(request?.headers["x-body-sha256"]).toBe(sha256(JSON.stringify(request?.body)));
    expect(request?.headers["x-body-sha256"]).toBe(sha256(seen[0]?.body ?? ""));
  });

  it("signs the lane's raw call over the client's bytes", async () => {
    const upstream = await serve({ kind: "json", body: answer() });
    const seen: OutgoingRequest[] = [];
    const settings = { id: "signed", api: "ollama" as const, baseUrl: upstream.url };
    const endpoint = signedQuirks(seen).endpoint(settings);
    const target = passThroughTargetOf(settings, endpoint, () => ({ message: "failed" }), {
      url: endpoint.url("llama3.2", false),
      credential: undefined,
      stream: false,
    });
    const bytes = Buffer.from(JSON.stringify({ model: "llama3.2", messages: [{ role: "user", content: "Hi" }], stream: false }));
    const signal = new AbortController().signal;
    const response = await openPassThrough(target, bytes, { signal });
    await readPassThroughBody(target, response, signal);
    const [request] = upstream.requests;
    expect(request?.url).toBe("/api/chat?signed=1");
    expect(seen[0]?.body.equals(bytes)).toBe(true);
    expect(request?.headers["x-body-sha256"]).toBe(sha256(bytes));
    expect(request?.headers["content-length"]).toBe(String(bytes.byteLength));
  });

  it("a signing step that fails fails the call before anything is sent", async () => {
    const upstream = await serve({ kind: "json", body: answer() });
    const quirks: ProviderQuirks = {
      api: "ollama",
      endpoint: (settings) => ({
        ...ollamaQuirks.endpoint(settings),
        sign: () => Promise.reject(new Error("no credentials to sign with")),
      }),
    };
    const provider = new HttpProvider({ id: "signed", api: "ollama", baseUrl: upstream.url }, quirks);
    await expect(provider.complete(simpleRequest, context())).rejects.toThrow();
    expect(upstream.requests).toHaveLength(0);
  });
});
