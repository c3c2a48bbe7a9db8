import { generateKeyPairSync } from "node:crypto";
import { describe, expect, it } from "vitest";
import { classifyFailure } from "../../core/classify/index.js";
import { UpstreamFailure } from "../../ports/provider.js";
import type { MockProvider } from "../../testing/mock-provider/index.js";
import { openPassThrough, readPassThroughBody } from "../shared/pass-through-call.js";
import { simpleRequest } from "../shared/__fixtures__/canonical-requests.js";
import type { ProviderSettings, VertexSettings } from "../shared/provider-settings.js";
import { HttpProvider } from "../http-provider.js";
import { createProvider } from "../registry.js";
import { sameWireTargetOf } from "../same-wire-targets.js";
import { collectEvents, mockProviderPerTest } from "../shared/__fixtures__/mock-per-test.js";

const { privateKey } = generateKeyPairSync("rsa", { modulusLength: 2048 });
const serviceAccount = (email: string) =>
  JSON.stringify({
    type: "service_account",
    client_email: email,
    private_key: privateKey.export({ type: "pkcs8", format: "pem" }).toString(),
    private_key_id: "key-1",
  });
const credential = { type: "api_key" as const, provider: "vertex", key: serviceAccount("detour-test@proj.iam.gserviceaccount.com") };

const against = mockProviderPerTest();

function vertex(mock: MockProvider, publisher: VertexSettings["publisher"]): HttpProvider {
  const settings: ProviderSettings = {
    id: "vertex",
    api: "vertex",
    baseUrl: `${mock.url}/v1`,
    vertex: { project: "proj", location: "us-east5", publisher, tokenUrl: `${mock.url}/token` },
  };
  return createProvider(settings) as HttpProvider;
}

const context = (model: string, given = credential) => ({ model, credential: given, signal: new AbortController().signal });

describe("Vertex AI (api vertex)", () => {
  it("R-GW-12: Claude goes to rawPredict with the model in the URL, anthropic_version in the body and a service-account token", async () => {
    const mock = await against();
    const subject = vertex(mock, "anthropic");
    expect(subject.wire.id).toBe("anthropic-messages");
    const answer = await subject.complete(simpleRequest, context("claude-sonnet-4-6@20260101"));
    expect(answer.content[0]).toMatchObject({ type: "text" });
    const [sent] = mock.requests();
    expect(sent?.path).toBe("/v1/projects/proj/locations/us-east5/publishers/anthropic/models/claude-sonnet-4-6@20260101:rawPredict");
    expect(sent?.body).toMatchObject({ anthropic_version: "vertex-2023-10-16" });
    expect(sent?.body).not.toHaveProperty("model");
    expect(mock.tokenGrants()).toEqual([
      {
        account: "detour-test@proj.iam.gserviceaccount.com",
        scope: "https://www.googleapis.com/auth/cloud-platform",
        issuedAt: expect.any(Number),
      },
    ]);
  });

  it("R-GW-12: Claude streams through streamRawPredict", async () => {
    const mock = await against();
    const events = await collectEvents(vertex(mock, "anthropic").stream(simpleRequest, context("claude-sonnet-4-6")));
    expect(events.some((event) => event.type === "text-delta")).toBe(true);
    expect(mock.requests()[0]?.path).toMatch(/models\/claude-sonnet-4-6:streamRawPredict$/);
    expect(mock.requests()[0]?.body).toMatchObject({ stream: true, anthropic_version: "vertex-2023-10-16" });
  });

  it("R-GW-12: Gemini goes to generateContent and streamGenerateContent?alt=sse under publishers/google", async () => {
    const mock = await against();
    const subject = vertex(mock, "google");
    expect(subject.wire.id).toBe("google-generative-ai");
    await subject.complete(simpleRequest, context("gemini-2.5-pro"));
    await collectEvents(subject.stream(simpleRequest, context("gemini-2.5-pro")));
    const paths = mock.requests().map((request) => request.path);
    expect(paths).toEqual([
      "/v1/projects/proj/locations/us-east5/publishers/google/models/gemini-2.5-pro:generateContent",
      "/v1/projects/proj/locations/us-east5/publishers/google/models/gemini-2.5-pro:streamGenerateContent?alt=sse",
    ]);
  });

  it("R-AP-5: concurrent calls share one token fetch, and later calls reuse the kept token", async () => {
    const mock = await against();
    const subject = vertex(mock, "google");
    await Promise.all(Array.from({ length: 5 }, () => subject.complete(simpleRequest, context("gemini-2.5-pro"))));
    await subject.complete(simpleRequest, context("gemini-2.5-pro"));
    expect(mock.requests()).toHaveLength(6);
    expect(mock.tokenGrants()).toHaveLength(1);
  });

  it("R-GW-12: each profile's service account gets its own token", async () => {
    const mock = await against();
    const subject = vertex(mock, "google");
    const other = { ...credential, key: serviceAccount("second@proj.iam.gserviceaccount.com") };
    await subject.complete(simpleRequest, context("gemini-2.5-pro"));
    await subject.complete(simpleRequest, context("gemini-2.5-pro", other));
    expect(mock.tokenGrants().map((grant) => grant.account)).toEqual([
      "detour-test@proj.iam.gserviceaccount.com",
      "second@proj.iam.gserviceaccount.com",
    ]);
  });

  it("R-GW-12: RESOURCE_EXHAUSTED with Vertex's per-model quota text is a rate limit", async () => {
    const mock = await against([{ steps: [{ fault: "rate-limit" }] }]);
    const error = await vertex(mock, "anthropic")
      .complete(simpleRequest, context("claude-sonnet-4-6"))
      .catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(UpstreamFailure);
    const failure = (error as UpstreamFailure).failure;
    expect(failure.status).toBe(429);
    expect(failure.message).toMatch(/Quota exceeded for aiplatform\.googleapis\.com.*claude-sonnet-4-6/);
    expect(classifyFailure(failure).reason).toBe("rate_limit");
  });

  it("R-GW-12: a token endpoint that refuses fails the attempt as auth and names where the key comes from", async () => {
    const mock = await against();
    const subject = vertex(mock, "google");
    const broken = { ...credential, key: JSON.stringify({ client_email: "x@y", private_key: "not a key" }) };
    const error = await subject.complete(simpleRequest, context("gemini-2.5-pro", broken)).catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(UpstreamFailure);
    const failure = (error as UpstreamFailure).failure;
    expect(failure.status).toBe(401);
    expect(failure.message).toMatch(/service-account key/);
    expect(classifyFailure(failure).reason).toBe("auth");
    expect(mock.requests()).toHaveLength(0);
  });

  it("R-GW-6: the same-wire lane sends an Anthropic client's body to rawPredict unchanged but model and anthropic_version", async () => {
    const mock = await against();
    const provider = vertex(mock, "anthropic");
    const lane = sameWireTargetOf(provider, { id: "vertex", api: "vertex", baseUrl: `${mock.url}/v1` });
    const client = {
      model: "claude-sonnet-4-6",
      max_tokens: 2048,
      thinking: { type: "enabled", budget_tokens: 1024 },
      system: [{ type: "text", text: "You are terse.", cache_control: { type: "ephemeral" } }],
      tools: [{ name: "get_weather", description: "Weather", input_schema: { type: "object", properties: { city: { type: "string" } } } }],
      messages: [{ role: "user", content: "hi" }],
    };
    const target = lane!.target(
      credential,
      false,
      { "anthropic-version": "2023-06-01", "anthropic-beta": "interleaved-thinking-2025-05-14" },
      "claude-sonnet-4-6",
    );
    const signal = new AbortController().signal;
    const response = await openPassThrough(target, Buffer.from(JSON.stringify(client)), { signal });
    await readPassThroughBody(target, response, signal);
    const [sent] = mock.requests();
    const { model: _model, ...rest } = client;
    expect(sent?.body).toEqual({ ...rest, anthropic_version: "vertex-2023-10-16" });
    expect(sent?.headers["anthropic-beta"]).toBe("interleaved-thinking-2025-05-14");
  });
});
