import { createServer, type IncomingMessage, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { afterEach, describe, expect, it } from "vitest";
import type { CanonicalStreamEvent } from "../../ports/canonical.js";
import { UpstreamFailure } from "../../ports/provider.js";
import { createAnthropicStreamEncoder } from "../../wire/anthropic-messages/encode-stream.js";
import { bedrockChunkMessage } from "../../wire/bedrock/anthropic-on-bedrock.js";
import { awsEventMessage, awsExceptionMessage } from "../../wire/shared/aws-event-stream.js";
import { verifyAwsSignature } from "../cloud/sigv4.js";
import { HttpProvider } from "../http-provider.js";
import { awsKeysOfCredential, createBedrockQuirks, regionOfBedrockUrl, type BedrockEnvironment } from "./quirks.js";

const CLAUDE = "anthropic.claude-sonnet-4-5-20250929-v1:0";
const KEYS = { AKIDPROFILE0000000001: "profile-secret/abc+def", AKIDENVIRONMENT000001: "env-secret/xyz" } as Record<string, string>;
const profileCredential = { type: "api_key" as const, provider: "bedrock", key: "AKIDPROFILE0000000001:profile-secret/abc+def" };

interface Received {
  method: string;
  path: string;
  headers: IncomingMessage["headers"];
  body: string;
}

let server: Server | undefined;
afterEach(async () => {
  await new Promise<void>((resolve) => (server ? server.close(() => resolve()) : resolve()));
  server = undefined;
});

/** A loopback Bedrock: checks each request's signature, then answers with `reply`. */
async function bedrock(
  reply: (request: Received) => { status: number; headers: Record<string, string>; body: Uint8Array | string },
): Promise<{ url: string; received: Received[]; checks: ReturnType<typeof verifyAwsSignature>[] }> {
  const received: Received[] = [];
  const checks: ReturnType<typeof verifyAwsSignature>[] = [];
  server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on("data", (chunk: Buffer) => chunks.push(chunk));
    req.on("end", () => {
      const request = { method: req.method ?? "", path: req.url ?? "", headers: req.headers, body: Buffer.concat(chunks).toString("utf8") };
      received.push(request);
      checks.push(verifyAwsSignature({ ...request, secretFor: (id) => KEYS[id] }));
      const answer = reply(request);
      res.writeHead(answer.status, answer.headers);
      // Written in small pieces: frames arrive split across reads.
      const bytes = typeof answer.body === "string" ? Buffer.from(answer.body) : Buffer.from(answer.body);
      for (let at = 0; at < bytes.length; at += 37) res.write(bytes.subarray(at, at + 37));
      res.end();
    });
  });
  await new Promise<void>((resolve) => server?.listen(0, "127.0.0.1", resolve));
  return { url: `http://127.0.0.1:${(server?.address() as AddressInfo).port}`, received, checks };
}

const environment = (env: Record<string, string | undefined> = {}, file?: string): BedrockEnvironment => ({
  env,
  readCredentialsFile: () => Promise.resolve(file),
  now: () => new Date(),
});

function provider(baseUrl: string, env: BedrockEnvironment, extra: { region?: string; awsProfile?: string } = {}): HttpProvider {
  return new HttpProvider(
    { id: "bedrock", api: "bedrock", baseUrl, region: "us-east-1", createResponseId: () => "resp-1", ...extra },
    createBedrockQuirks(env),
  );
}

const request = { messages: [{ role: "user" as const, content: [{ type: "text" as const, text: "Weather?" }] }], maxTokens: 64 };
const context = (credential?: typeof profileCredential) => ({
  model: CLAUDE,
  signal: new AbortController().signal,
  ...(credential ? { credential } : {}),
});

function claudeStream(): Uint8Array {
  const encoder = createAnthropicStreamEncoder({ model: CLAUDE });
  const events: CanonicalStreamEvent[] = [
    { type: "message-start", id: "msg_1", model: CLAUDE },
    { type: "text-delta", text: "Rain " },
    { type: "text-delta", text: "in Oslo." },
    { type: "finish", reason: "stop", usage: { inputTokens: 7, outputTokens: 3 } },
  ];
  const sse = events.flatMap((event) => encoder.encode(event)).join("");
  return Buffer.concat([...sse.matchAll(/^data: (.*)$/gm)].map((match) => bedrockChunkMessage(match[1] as string)));
}

async function collect(stream: AsyncIterable<CanonicalStreamEvent>): Promise<CanonicalStreamEvent[]> {
  const events: CanonicalStreamEvent[] = [];
  for await (const event of stream) events.push(event);
  return events;
}

describe("the Bedrock provider", () => {
  it("R-GW-12: region from the runtime URL's host, and profile keys as ACCESS_KEY_ID:SECRET", () => {
    expect(regionOfBedrockUrl("https://bedrock-runtime.eu-west-1.amazonaws.com")).toBe("eu-west-1");
    expect(regionOfBedrockUrl("https://bedrock-runtime-fips.us-gov-west-1.amazonaws.com")).toBe("us-gov-west-1");
    expect(regionOfBedrockUrl("http://127.0.0.1:9000")).toBeUndefined();
    expect(awsKeysOfCredential({ type: "api_key", provider: "b", key: "AKID:se/cr+et:token" })).toEqual({
      accessKeyId: "AKID",
      secretAccessKey: "se/cr+et",
      sessionToken: "token",
    });
    expect(awsKeysOfCredential({ type: "api_key", provider: "b", key: "no-colon" })).toBeUndefined();
  });

  it("R-GW-12: a Claude call goes to InvokeModel signed with the profile's keys, the body without model", async () => {
    const upstream = await bedrock(() => ({
      status: 200,
      headers: { "content-type": "application/json" },
      body: JSON.stringify({
        id: "msg_1",
        type: "message",
        role: "assistant",
        model: CLAUDE,
        content: [{ type: "text", text: "Rain in Oslo." }],
        stop_reason: "end_turn",
        stop_sequence: null,
        usage: { input_tokens: 7, output_tokens: 3 },
      }),
    }));
    const answer = await provider(upstream.url, environment()).complete(request, context(profileCredential));
    expect(answer.content).toEqual([{ type: "text", text: "Rain in Oslo." }]);
    expect(upstream.received[0]?.path).toBe("/model/anthropic.claude-sonnet-4-5-20250929-v1%3A0/invoke");
    expect(upstream.checks[0]).toEqual({ ok: true, accessKeyId: "AKIDPROFILE0000000001" });
    const body = JSON.parse(upstream.received[0]?.body ?? "{}") as Record<string, unknown>;
    expect(body.model).toBeUndefined();
    expect(body.anthropic_version).toBe("bedrock-2023-05-31");
    expect(upstream.received[0]?.headers.authorization).toContain("/us-east-1/bedrock/aws4_request");
  });

  it("R-GW-12: a Claude stream is read from AWS event-stream frames split across reads", async () => {
    const upstream = await bedrock(() => ({
      status: 200,
      headers: { "content-type": "application/vnd.amazon.eventstream" },
      body: claudeStream(),
    }));
    const events = await collect(provider(upstream.url, environment()).stream(request, context(profileCredential)));
    expect(upstream.received[0]?.path).toBe("/model/anthropic.claude-sonnet-4-5-20250929-v1%3A0/invoke-with-response-stream");
    expect(upstream.received[0]?.headers.accept).toBe("application/vnd.amazon.eventstream");
    expect(upstream.checks[0]?.ok).toBe(true);
    expect(events.map((event) => (event.type === "text-delta" ? event.text : "")).join("")).toBe("Rain in Oslo.");
    expect(events.at(-1)).toMatchObject({ type: "finish", reason: "stop", usage: { inputTokens: 7, outputTokens: 3 } });
  });

  it("R-GW-12: a Converse stream for another model, signed with the AWS environment's keys when the profile has none", async () => {
    const body = Buffer.concat([
      awsEventMessage("messageStart", { role: "assistant" }),
      awsEventMessage("contentBlockDelta", { contentBlockIndex: 0, delta: { text: "Hello" } }),
      awsEventMessage("contentBlockStop", { contentBlockIndex: 0 }),
      awsEventMessage("messageStop", { stopReason: "end_turn" }),
      awsEventMessage("metadata", { usage: { inputTokens: 4, outputTokens: 1, totalTokens: 5 }, metrics: { latencyMs: 9 } }),
    ]);
    const upstream = await bedrock(() => ({ status: 200, headers: { "content-type": "application/vnd.amazon.eventstream" }, body }));
    const env = environment({ AWS_ACCESS_KEY_ID: "AKIDENVIRONMENT000001", AWS_SECRET_ACCESS_KEY: "env-secret/xyz" });
    const events = await collect(provider(upstream.url, env).stream(request, { ...context(), model: "amazon.nova-pro-v1:0" }));
    expect(upstream.received[0]?.path).toBe("/model/amazon.nova-pro-v1%3A0/converse-stream");
    expect(upstream.checks[0]).toEqual({ ok: true, accessKeyId: "AKIDENVIRONMENT000001" });
    expect(JSON.parse(upstream.received[0]?.body ?? "{}")).toMatchObject({ messages: [{ role: "user", content: [{ text: "Weather?" }] }] });
    expect(events.at(-1)).toMatchObject({ type: "finish", reason: "stop", usage: { inputTokens: 4, outputTokens: 1 } });
  });

  it("R-GW-12: a named AWS profile's stored keys sign when the Detour profile holds none", async () => {
    const upstream = await bedrock(() => ({
      status: 200,
      headers: { "content-type": "application/vnd.amazon.eventstream" },
      body: claudeStream(),
    }));
    const file =
      "[default]\naws_access_key_id = AKIDWRONG\naws_secret_access_key = wrong\n\n[work]\naws_access_key_id = AKIDENVIRONMENT000001\naws_secret_access_key = env-secret/xyz\n";
    await collect(provider(upstream.url, environment({}, file), { awsProfile: "work" }).stream(request, context()));
    expect(upstream.checks[0]).toEqual({ ok: true, accessKeyId: "AKIDENVIRONMENT000001" });
  });

  it("R-GW-12: ThrottlingException before the stream and inside it fail with Bedrock's type, message and status", async () => {
    let call = 0;
    const upstream = await bedrock((): { status: number; headers: Record<string, string>; body: Uint8Array | string } =>
      call++ === 0
        ? {
            status: 429,
            headers: {
              "content-type": "application/json",
              "x-amzn-errortype": "ThrottlingException:http://internal.amazon.com/coral/com.amazon.bedrock/",
            },
            body: JSON.stringify({ message: "Too many requests, please wait before trying again." }),
          }
        : {
            status: 200,
            headers: { "content-type": "application/vnd.amazon.eventstream" },
            body: awsExceptionMessage("throttlingException", "Too many tokens, please wait before trying again."),
          },
    );
    const bedrockProvider = provider(upstream.url, environment());
    const before = await collect(bedrockProvider.stream(request, context(profileCredential))).catch((error: unknown) => error);
    expect(before).toBeInstanceOf(UpstreamFailure);
    expect((before as UpstreamFailure).failure).toMatchObject({ status: 429, errorType: "ThrottlingException" });
    const inside = await collect(bedrockProvider.stream(request, context(profileCredential))).catch((error: unknown) => error);
    expect((inside as UpstreamFailure).failure).toMatchObject({
      status: 429,
      errorType: "ThrottlingException",
      message: "Too many tokens, please wait before trying again.",
    });
  });

  it("R-GW-12: without a region in the config, the URL or the environment, the provider says where to set one", () => {
    expect(
      () => new HttpProvider({ id: "bedrock", api: "bedrock", baseUrl: "http://127.0.0.1:1" }, createBedrockQuirks(environment())),
    ).toThrow(/no AWS region/);
  });
});
