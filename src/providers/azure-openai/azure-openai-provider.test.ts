import { describe, expect, it } from "vitest";
import { classifyFailure } from "../../core/classify/index.js";
import { UpstreamFailure } from "../../ports/provider.js";
import { fingerprintKey } from "../../testing/mock-provider/index.js";
import { openPassThrough, readPassThroughBody } from "../shared/pass-through-call.js";
import { simpleRequest } from "../shared/__fixtures__/canonical-requests.js";
import type { ProviderSettings } from "../shared/provider-settings.js";
import { azureOpenAiEmbeddingsTarget } from "../embeddings-targets.js";
import { HttpProvider } from "../http-provider.js";
import { createProvider } from "../registry.js";
import { sameWireTargetOf } from "../same-wire-targets.js";
import { collectEvents, mockProviderPerTest } from "../shared/__fixtures__/mock-per-test.js";

const credential = { type: "api_key" as const, provider: "azure-east", key: "azure-key-east-0123456789" };

const against = mockProviderPerTest();

function azure(baseUrl: string, azureSettings: ProviderSettings["azure"] = {}): HttpProvider {
  return createProvider({ id: "azure-east", api: "azure-openai", baseUrl, azure: azureSettings }) as HttpProvider;
}

const context = (model = "gpt-4o") => ({ model, credential, signal: new AbortController().signal });

function failureOf(error: unknown) {
  expect(error).toBeInstanceOf(UpstreamFailure);
  return (error as UpstreamFailure).failure;
}

describe("Azure OpenAI (api azure-openai)", () => {
  it("R-GW-12: chat goes to the deployment URL with api-version and the profile's key in api-key", async () => {
    const mock = await against();
    const subject = azure(mock.url, { deployments: { "gpt-4o": "gpt4o-east" } });
    expect(subject.wire.id).toBe("openai-chat");
    const answer = await subject.complete(simpleRequest, context());
    expect((answer.content[0] as { text: string }).text).toContain(fingerprintKey(credential.key));
    const [sent] = mock.requests();
    expect(sent?.path).toBe("/openai/deployments/gpt4o-east/chat/completions?api-version=2024-10-21");
    expect(sent?.model).toBe("gpt4o-east");
    expect(sent?.headers["api-key"]).toBeUndefined(); // recorded without secrets
    expect(sent?.headers.authorization).toBeUndefined();
  });

  it("R-GW-12: a model without a deployment mapping is its own deployment; apiVersion is the configured one", async () => {
    const mock = await against();
    const events = await collectEvents(azure(mock.url, { apiVersion: "2025-01-01-preview" }).stream(simpleRequest, context("gpt-4.1")));
    expect(events.some((event) => event.type === "text-delta")).toBe(true);
    expect(mock.requests()[0]?.path).toBe("/openai/deployments/gpt-4.1/chat/completions?api-version=2025-01-01-preview");
    expect(mock.requests()[0]?.stream).toBe(true);
  });

  it("R-GW-12: wire openai-responses posts to /openai/responses with the deployment as the body's model", async () => {
    const mock = await against();
    const subject = azure(mock.url, { wire: "openai-responses", deployments: { "gpt-5": "gpt5-prod" } });
    expect(subject.wire.id).toBe("openai-responses");
    await subject.complete(simpleRequest, context("gpt-5"));
    const [sent] = mock.requests();
    expect(sent?.path).toBe("/openai/responses?api-version=2025-04-01-preview");
    expect((sent?.body as { model: string }).model).toBe("gpt5-prod");
  });

  it("R-GW-12: a 429 with Azure's call-rate text and retry-after-ms is a rate limit whose reset is the milliseconds stated", async () => {
    const mock = await against([{ steps: [{ fault: "rate-limit", retryAfterSeconds: 1.5 }] }]);
    const error = await azure(mock.url)
      .complete(simpleRequest, context())
      .catch((caught: unknown) => caught);
    const failure = failureOf(error);
    expect(failure.status).toBe(429);
    expect(failure.message).toMatch(/exceeded call rate limit/);
    const verdict = classifyFailure({ ...failure, now: 1_000_000 });
    expect(verdict.reason).toBe("rate_limit");
    expect(verdict.resetAt).toBe(1_000_000 + 1500);
  });

  it("R-GW-12: a content-filter 400 with innererror is the content_filter reason, not a reason to fail over", async () => {
    const mock = await against([{ steps: [{ fault: "content-filter" }] }]);
    const error = await azure(mock.url)
      .complete(simpleRequest, context())
      .catch((caught: unknown) => caught);
    const failure = failureOf(error);
    expect(failure.status).toBe(400);
    expect(classifyFailure(failure).reason).toBe("content_filter");
  });

  it("R-GW-12: a call without a key is refused with Azure's 401 body, classified as auth", async () => {
    const mock = await against();
    const error = await azure(mock.url)
      .complete(simpleRequest, { model: "gpt-4o", signal: new AbortController().signal })
      .catch((caught: unknown) => caught);
    const failure = failureOf(error);
    expect(failure.status).toBe(401);
    expect(failure.message).toMatch(/Access denied due to invalid subscription key/);
    expect(classifyFailure(failure).reason).toBe("auth");
  });

  it("R-GW-12: the same-wire lane calls the deployment URL of the model with the client's bytes", async () => {
    const mock = await against();
    const provider = azure(mock.url, { deployments: { "gpt-4o": "gpt4o-east" } });
    const lane = sameWireTargetOf(provider, { id: "azure-east", api: "azure-openai", baseUrl: mock.url });
    expect(lane?.wire.id).toBe("openai-chat");
    const target = lane!.target(credential, false, undefined, "gpt-4o");
    const body = Buffer.from(
      JSON.stringify({ model: "gpt-4o", messages: [{ role: "user", content: "hi" }], logit_bias: { "50256": -100 } }),
    );
    const signal = new AbortController().signal;
    const response = await openPassThrough(target, body, { signal });
    await readPassThroughBody(target, response, signal);
    const [sent] = mock.requests();
    expect(sent?.path).toBe("/openai/deployments/gpt4o-east/chat/completions?api-version=2024-10-21");
    // The deployment is in the URL; the body is the client's, unchanged.
    expect(sent?.body).toEqual({ model: "gpt-4o", messages: [{ role: "user", content: "hi" }], logit_bias: { "50256": -100 } });
    expect(sent?.model).toBe("gpt4o-east");
  });

  it("R-GW-12: embeddings go to the model's deployment embeddings URL", async () => {
    const mock = await against();
    const settings: ProviderSettings = {
      id: "azure-east",
      api: "azure-openai",
      baseUrl: mock.url,
      azure: { deployments: { "text-embedding-3-small": "emb-east" } },
    };
    const target = azureOpenAiEmbeddingsTarget(settings, credential, "text-embedding-3-small");
    const signal = new AbortController().signal;
    const response = await openPassThrough(target, Buffer.from(JSON.stringify({ model: "text-embedding-3-small", input: "hello" })), {
      signal,
    });
    const bytes = await readPassThroughBody(target, response, signal);
    expect(JSON.parse(bytes.toString("utf8")).data[0].embedding.length).toBeGreaterThan(0);
    expect(mock.requests()[0]?.path).toBe("/openai/deployments/emb-east/embeddings?api-version=2024-10-21");
  });

  it("R-GW-12: with azure.entra and no client secret in the environment, the call fails as auth before any request, naming the setting", async () => {
    const mock = await against();
    const subject = azure(mock.url, { entra: { tenantId: "t", clientId: "c", clientSecretEnv: "DETOUR_TEST_AZURE_SECRET_THAT_IS_UNSET" } });
    const error = await subject.complete(simpleRequest, context()).catch((caught: unknown) => caught);
    const failure = failureOf(error);
    expect(failure.status).toBe(401);
    expect(failure.message).toMatch(/azure\.entra/);
    expect(failure.message).toMatch(/DETOUR_TEST_AZURE_SECRET_THAT_IS_UNSET/);
    expect(mock.requests()).toHaveLength(0);
  });
});
