/**
 * The scenario language of the fault-injecting mock provider (R-CL-3), as zod schemas so scenario files
 * are validated with readable paths. Types are inferred from the schemas; docs/mock-provider.md explains
 * every field.
 */
import { z } from "zod";
import { mockBudgetsSchema, type MockBudgetsInput } from "./budget-schema.js";

/** The wire formats a client calls with an API key in a header: the mock's own tests send each of them the same requests. */
export const MOCK_WIRE_APIS = ["openai", "openai-responses", "anthropic", "google", "ollama"] as const;
export type MockKeyedWireApi = (typeof MOCK_WIRE_APIS)[number];
/**
 * Every wire a rule can match by `api`: the keyed ones and `bedrock`, Bedrock's Converse API (SigV4-signed, so
 * tested on its own; Claude on Bedrock's InvokeModel speaks Anthropic's body and matches `anthropic`).
 */
export const MOCK_RULE_APIS = [...MOCK_WIRE_APIS, "bedrock"] as const;
export type MockWireApi = (typeof MOCK_RULE_APIS)[number];

/** Error answers with a provider-realistic body for each wire format (see error-presets.ts). */
export const MOCK_ERROR_PRESETS = [
  "rate-limit",
  "billing",
  "revoked-key",
  "invalid-key",
  "server-error",
  "unavailable",
  "overloaded",
  "context-overflow",
  "content-filter",
  "model-not-found",
] as const;
export type MockErrorPreset = (typeof MOCK_ERROR_PRESETS)[number];

/** A step is used `times` times before the next one (default 1); capped so a typo cannot eat memory. */
const times = z.number().int().min(1).max(10_000).optional();
const tokenCount = z.number().int().min(0).max(10_000);
const headers = z.record(z.string(), z.string()).optional();

const okStep = z.strictObject({ fault: z.literal("ok"), times });
const errorStep = z.strictObject({
  fault: z.enum(MOCK_ERROR_PRESETS),
  /** Overrides the preset's HTTP status (the body keeps the preset's shape). */
  status: z.number().int().min(100).max(599).optional(),
  /** Overrides the preset's error message. */
  message: z.string().optional(),
  /** Sends `retry-after: <seconds>` plus the wire format's own reset hint. */
  retryAfterSeconds: z.number().min(0).optional(),
  headers,
  times,
});
const statusStep = z.strictObject({
  fault: z.literal("status"),
  status: z.number().int().min(100).max(599),
  /** Raw body: an object is sent as JSON, a string as is. Absent → the wire's generic error body. */
  body: z.unknown().optional(),
  headers,
  times,
});
const resetStep = z.strictObject({ fault: z.literal("reset"), times });
const silenceStep = z.strictObject({ fault: z.literal("silence"), times });
const slowFirstTokenStep = z.strictObject({
  fault: z.literal("slow-first-token"),
  delayMs: z.number().int().min(0).max(600_000),
  times,
});
/** A steady generation: one token every `tokenDelayMs` (R-ST-6: long answers that keep producing tokens). */
const slowGenerationStep = z.strictObject({
  fault: z.literal("slow-generation"),
  tokenDelayMs: z.number().int().min(0).max(600_000),
  /** How many text tokens the answer has (the reply's words repeated); default: the reply's own. */
  tokens: z.number().int().min(1).max(100_000).optional(),
  times,
});
/** A provider that refuses `stream: true` for this model (400) and answers non-streamed requests. */
const streamUnsupportedStep = z.strictObject({ fault: z.literal("stream-unsupported"), times });
/** An upstream that ignores `stream: true`: every request gets the complete non-streamed JSON answer (200). */
const ignoresStreamStep = z.strictObject({ fault: z.literal("ignores-stream"), times });
const streamCutStep = z.strictObject({ fault: z.literal("stream-cut"), afterTokens: tokenCount, times });
const stallStep = z.strictObject({ fault: z.literal("stall"), afterTokens: tokenCount, times });
const malformedChunkStep = z.strictObject({
  fault: z.literal("malformed-chunk"),
  afterTokens: tokenCount.optional(),
  times,
});
const missingDoneStep = z.strictObject({ fault: z.literal("missing-done"), times });
const streamErrorStep = z.strictObject({
  fault: z.literal("stream-error"),
  /** Which error the in-band error event carries (default `overloaded`). */
  error: z.enum(MOCK_ERROR_PRESETS).optional(),
  message: z.string().optional(),
  afterTokens: tokenCount.optional(),
  times,
});

const stepObject = z.discriminatedUnion("fault", [
  okStep,
  errorStep,
  statusStep,
  resetStep,
  silenceStep,
  slowFirstTokenStep,
  slowGenerationStep,
  streamUnsupportedStep,
  ignoresStreamStep,
  streamCutStep,
  stallStep,
  malformedChunkStep,
  missingDoneStep,
  streamErrorStep,
]);

/** A bare string is shorthand for `{ fault: "<string>" }` (e.g. `steps: ["rate-limit", "ok"]`). */
export const mockStepSchema = z.preprocess((value) => (typeof value === "string" ? { fault: value } : value), stepObject);

export const mockRuleSchema = z.strictObject({
  /** Shown in recorded requests so a test can tell which rule answered. */
  name: z.string().optional(),
  match: z
    .strictObject({
      /** The exact API key (Bearer token, x-api-key, x-goog-api-key or ?key=). */
      key: z.string().optional(),
      /** Model id; `*` matches any run of characters (`gpt-4*`). */
      model: z.string().optional(),
      api: z.enum(MOCK_RULE_APIS).optional(),
    })
    .optional(),
  steps: z.array(mockStepSchema).min(1),
  /** The answer text of every request this rule answers (instead of the greeting), streamed word by word. */
  answer: z.string().min(1).optional(),
  /**
   * How the rule's model continues a cut `answer` (R-ST-4): a trailing assistant message that starts the
   * answer is a prefill (`accept` it, or `reject` it with a 400); an assistant turn that starts the answer,
   * followed by a user turn, is an instructed continuation. `style` says what the continuation sends.
   */
  continuation: z
    .strictObject({
      prefill: z.enum(["accept", "reject"]).optional(),
      style: z.enum(["exact", "repeat-last-words", "restart"]).optional(),
    })
    .optional(),
  /** After the last step: answer healthily (`ok`, default) or keep repeating the last step (sticky). */
  then: z.enum(["ok", "repeat-last"]).optional(),
  /**
   * Draw each request's step at random from `steps` (each weighted by its `times`) instead of in order, from a
   * generator seeded with `seed`: the same seed gives the same sequence of answers, so a "half the requests
   * fail" run is reproducible. `then` does not apply: the steps never run out.
   */
  random: z.strictObject({ seed: z.number().int().min(0).max(4_294_967_295) }).optional(),
});

export const mockScenarioSchema = z.strictObject({
  description: z.string().optional(),
  rules: z.array(mockRuleSchema),
  /** Rate-limit budgets per API key (R-PO-7): headers on every answer, 429 once a window is spent. */
  budgets: mockBudgetsSchema.optional(),
});

export const mockScenarioCollectionSchema = z.strictObject({
  scenarios: z.record(z.string().min(1), mockScenarioSchema),
  /** Which scenario `detour mock-provider --scenario <file>` starts with; default: the first. */
  default: z.string().optional(),
});

/** A scenario file holds a collection of named scenarios or one bare scenario. */
export const mockScenarioFileSchema = z.union([mockScenarioCollectionSchema, mockScenarioSchema]);

export type MockStep = z.output<typeof stepObject>;
/** Faults that need a parameter cannot be written as a bare string. */
type ShorthandFault = Exclude<MockStep["fault"], "status" | "slow-first-token" | "slow-generation" | "stream-cut" | "stall">;
export type MockStepInput = z.input<typeof stepObject> | ShorthandFault;
export type MockRule = z.output<typeof mockRuleSchema>;
export type MockRuleInput = Omit<z.input<typeof mockRuleSchema>, "steps"> & { steps: MockStepInput[] };
export type MockScenario = z.output<typeof mockScenarioSchema>;
export type MockScenarioInput = { description?: string; rules: MockRuleInput[]; budgets?: MockBudgetsInput };
export type MockErrorStep = z.output<typeof errorStep>;
