/**
 * One Claude model on three clouds, in the order a team with enterprise quota chains them (SPEC R-GW-12):
 * Anthropic → AWS Bedrock → Google Vertex AI, through the gateway with the official `@anthropic-ai/sdk`, against
 * the mock provider's Anthropic, Bedrock (SigV4 checked) and Vertex (bearer from its token endpoint) paths.
 * Anthropic's 529, Bedrock's ThrottlingException and Vertex's RESOURCE_EXHAUSTED each move the request on, streamed
 * and not; the answer names the cloud that gave it.
 */
import Anthropic from "@anthropic-ai/sdk";
import { describe, expect, it } from "vitest";
import type { MockProvider, MockScenarioSelection } from "../../src/testing/mock-provider/index.js";
import { MOCK_AWS_CREDENTIALS } from "../../src/testing/mock-provider/wire/bedrock-wire.js";
import { awsKeyPair, cloudGatewayPerTest, serviceAccountKey } from "./fixtures/cloud-gateway.js";
import { streamedText } from "./fixtures/read-streams.js";

const ANTHROPIC_KEY = "sk-ant-three-clouds-5555555555";
const [AWS_KEY_ID] = Object.keys(MOCK_AWS_CREDENTIALS) as [string];
const BEDROCK_CLAUDE = "us.anthropic.claude-sonnet-4-5-20250929-v1:0";
const VERTEX_CLAUDE = "claude-sonnet-4-5@20250929";
const CHAIN = { primary: "anthropic/claude-sonnet-4-5", fallbacks: [`bedrock/${BEDROCK_CLAUDE}`, `vertex/${VERTEX_CLAUDE}`] };

const startChain = cloudGatewayPerTest({
  clientToken: "three-clouds-client-token",
  providers: (mockUrl) => ({
    anthropic: { api: "anthropic-messages", baseUrl: mockUrl, timeoutSeconds: 5 },
    bedrock: { api: "bedrock", baseUrl: mockUrl, region: "us-east-1", timeoutSeconds: 5 },
    vertex: {
      api: "vertex",
      baseUrl: `${mockUrl}/v1`,
      timeoutSeconds: 5,
      vertex: { project: "acme-ai", location: "us-east5", publisher: "anthropic", tokenUrl: `${mockUrl}/token` },
    },
  }),
  keys: {
    "anthropic:work": ANTHROPIC_KEY,
    "bedrock:keys": awsKeyPair(AWS_KEY_ID),
    "vertex:sa": serviceAccountKey("detour-three-clouds@acme-ai.iam.gserviceaccount.com", "three-clouds-key"),
  },
});
const start = (scenario: MockScenarioSelection) => startChain(CHAIN, scenario);

const ANTHROPIC_OVERLOADED = { match: { key: ANTHROPIC_KEY }, steps: ["overloaded" as const], then: "repeat-last" as const };
const BEDROCK_THROTTLED = { match: { key: AWS_KEY_ID }, steps: ["rate-limit" as const], then: "repeat-last" as const };
const VERTEX_EXHAUSTED = { match: { model: VERTEX_CLAUDE }, steps: ["rate-limit" as const], then: "repeat-last" as const };
const ask = { model: "detour", max_tokens: 256, messages: [{ role: "user" as const, content: "hi" }] };

/** Which cloud each upstream call went to, in order. */
function clouds(mock: MockProvider): string[] {
  return mock
    .requests()
    .map(({ path }) => (path.startsWith("/model/") ? "bedrock" : path.includes("/publishers/") ? "vertex" : "anthropic"));
}

describe("one Claude model on Anthropic, Bedrock and Vertex", () => {
  it("R-GW-12: Anthropic's 529 and Bedrock's ThrottlingException are answered by the same model on Vertex", async () => {
    const { anthropic, mock } = await start([ANTHROPIC_OVERLOADED, BEDROCK_THROTTLED]);
    const { data, response } = await anthropic.messages.create(ask).withResponse();
    expect(data.content[0]).toMatchObject({ type: "text" });
    expect(data.model).toBe(`vertex/${VERTEX_CLAUDE}`);
    expect(response.headers.get("x-detour-model")).toBe(`vertex/${VERTEX_CLAUDE}`);
    expect(clouds(mock)).toEqual(["anthropic", "bedrock", "vertex"]);
    expect(mock.requests().map((request) => request.fault)).toEqual(["overloaded", "rate-limit", "ok"]);
  });

  it("R-GW-12: streamed, Anthropic's 529 and Bedrock's ThrottlingException are answered by Vertex's stream", async () => {
    const { anthropic, mock } = await start([ANTHROPIC_OVERLOADED, BEDROCK_THROTTLED]);
    const { data: stream, response } = await anthropic.messages.create({ ...ask, stream: true }).withResponse();
    expect(await streamedText(stream)).toMatch(/\S/);
    expect(response.headers.get("x-detour-model")).toBe(`vertex/${VERTEX_CLAUDE}`);
    expect(clouds(mock)).toEqual(["anthropic", "bedrock", "vertex"]);
  });

  it("R-GW-12: when Vertex is out of quota too, the error names each cloud's reason and nothing is called twice", async () => {
    const { anthropic, mock } = await start([ANTHROPIC_OVERLOADED, BEDROCK_THROTTLED, VERTEX_EXHAUSTED]);
    const error = await anthropic.messages.create(ask).then(
      () => undefined,
      (caught: unknown) => caught,
    );
    expect(error).toBeInstanceOf(Anthropic.APIError);
    const failure = error as InstanceType<typeof Anthropic.APIError>;
    expect([429, 503, 529]).toContain(failure.status);
    const attempts = JSON.stringify(failure.error);
    for (const named of ["anthropic/claude-sonnet-4-5", `bedrock/${BEDROCK_CLAUDE}`, `vertex/${VERTEX_CLAUDE}`]) {
      expect(attempts).toContain(named);
    }
    expect(clouds(mock)).toEqual(["anthropic", "bedrock", "vertex"]);
  });
});
