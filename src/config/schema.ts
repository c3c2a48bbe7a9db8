/**
 * The one schema of detour.json5 (SPEC R-CF-2, R-CF-3). It is the source of the TypeScript types
 * (z.infer) and of the generated JSON Schema (json-schema.ts). Objects strip unknown keys instead of
 * rejecting them: OpenClaw configs carry many unrelated keys, which parse-config.ts reports as warnings.
 *
 * Defaults on nested objects use `.prefault` (the default is parsed, so inner defaults apply);
 * defaults on leaves use functions so no two parsed configs share an array.
 */
import { Cron } from "croner";
import { z } from "zod";
import { CLOUD_APIS, WIRE_FORMAT_APIS } from "../core/provider-apis.js";
import { crossCheckConfig } from "./cross-checks.js";
import {
  DEFAULT_AGENT_TIMEOUT_SECONDS,
  DEFAULT_COOLDOWNS,
  DEFAULT_GATEWAY,
  DEFAULT_HEADROOM,
  DEFAULT_SESSIONS,
  DEFAULT_TRACE,
  DEFAULT_MODEL_FAILOVER,
  DEFAULT_HEDGING,
  DEFAULT_REDIS_KEY_PREFIX,
  DEFAULT_STATE_BACKEND,
} from "./defaults.js";
import { MODEL_REF_MESSAGE, isAliasWord, isProviderId, isProviderModelRef } from "./model-ref-syntax.js";

/** Names the key of a record in the JSON Schema, so docs and tools can print `auth.profiles.<profileId>`. */
export const RECORD_KEY_META = "x-detour-key";

function recordOf<T extends z.ZodType>(keyPlaceholder: string, value: T) {
  return z.record(z.string(), value).meta({ [RECORD_KEY_META]: keyPlaceholder });
}

const positiveNumber = () => z.number().positive();
/**
 * Not `.int()`: zod marks its failure as aborting, which would skip the cross-field checks and hide
 * problems elsewhere in the file. A refinement keeps going; the meta keeps "integer" in the JSON Schema.
 */
const wholeNumber = () => z.number().refine(Number.isInteger, { error: "expected a whole number" }).meta({ type: "integer" });
const positiveInteger = () => wholeNumber().positive();
const nonNegativeNumber = () => z.number().nonnegative();
const httpUrl = () => z.url({ protocol: /^https?$/, error: "expected an http(s) URL" });
/** A name or address as a Host header carries it: `detour.example.com`, `10.0.0.5:4141`, `[fe80::1]:4141`. */
const allowedHost = () =>
  z
    .string()
    .regex(
      /^(\[[0-9A-Fa-f:.]+\]|[A-Za-z0-9_.-]+)(:\d{1,5})?$/,
      'expected a host name with an optional port, like "detour.example.com" or "10.0.0.5:4141"',
    );
/** An origin as a browser sends it: scheme, host and optional port, no path. */
const allowedOrigin = () =>
  z
    .string()
    .regex(
      /^https?:\/\/(\[[0-9A-Fa-f:.]+\]|[A-Za-z0-9_.-]+)(:\d{1,5})?\/?$/,
      'expected an origin like "https://chat.example.com" (scheme, host, optional port; no path)',
    );

/** Agent ids become directory names (`$DETOUR_HOME/agents/<agentId>/…`), so they must be path-safe. */
const agentId = () => z.string().regex(/^[A-Za-z0-9][A-Za-z0-9._-]*$/, "expected an agent id of letters, digits, '.', '_' or '-'");

/** `provider/model`, or a bare alias word that cross-checks.ts resolves against agents.defaults.models. */
export const ModelRefSchema = z
  .string()
  .refine((text) => isProviderModelRef(text) || isAliasWord(text), { error: MODEL_REF_MESSAGE })
  .meta({ description: 'A model reference "provider/model", or an alias from agents.defaults.models.' });

/** The wire formats a provider can speak, by their one id (the folder under wire/, the gateway dialect). */
export const PROVIDER_API_IDS = WIRE_FORMAT_APIS;

/**
 * Older names of a wire format, still read so older and OpenClaw configs load (R-CF-1); the loaded config
 * holds the id. wire/formats.ts keeps the same names as each format's aliases (a test holds them together).
 */
export const PROVIDER_API_ALIASES: Readonly<Record<string, (typeof PROVIDER_API_IDS)[number]>> = {
  "openai-completions": "openai-chat",
  // OpenClaw's name for its Bedrock provider.
  "bedrock-converse-stream": "bedrock",
};

/** Clouds that speak a wire format above at their own addresses, with their own auth (R-GW-12). */
export const CLOUD_PROVIDER_API_IDS = CLOUD_APIS;

type ProviderApiId = (typeof PROVIDER_API_IDS)[number] | (typeof CLOUD_PROVIDER_API_IDS)[number];

export const ProviderApiSchema = z
  .enum([...PROVIDER_API_IDS, ...CLOUD_PROVIDER_API_IDS, "openai-completions", "bedrock-converse-stream"])
  .transform((api): ProviderApiId => PROVIDER_API_ALIASES[api] ?? (api as ProviderApiId));

/** R-GW-7: US dollars per million tokens; wins over the catalogue's prices for the model. */
export const ModelCostSchema = z.object({
  input: nonNegativeNumber(),
  output: nonNegativeNumber().default(0),
  cacheRead: nonNegativeNumber().optional(),
  cacheWrite: nonNegativeNumber().optional(),
  reasoning: nonNegativeNumber().optional(),
});

/**
 * Vectors from two models can be compared only when both models map text into the same space: an
 * embeddings request falls back only to models that declare the same `embeddingSpace`.
 */
const embeddingSpace = () =>
  z.string().regex(/^[A-Za-z0-9][A-Za-z0-9._:/-]*$/, "expected a space name of letters, digits, '.', '_', ':', '/' or '-'");

export const ProviderModelDeclarationSchema = z.object({
  id: z.string().min(1),
  contextWindow: positiveInteger().optional(),
  maxTokens: positiveInteger().optional(),
  supportsPrefill: z.boolean().optional(),
  cost: ModelCostSchema.optional(),
  embeddingSpace: embeddingSpace().optional(),
  /** Azure OpenAI: the deployment serving this model id; without it the model id is the deployment name. */
  deployment: z.string().min(1).optional(),
});

/** `api: "azure-openai"`: where the resource is, which API version, and how to authenticate when not by key. */
export const AzureOpenAiConfigSchema = z.object({
  /** The resource name (`my-resource` → https://my-resource.openai.azure.com); `baseUrl` may give the endpoint instead. */
  resource: z
    .string()
    .regex(/^[A-Za-z0-9][A-Za-z0-9-]*$/, "expected an Azure resource name")
    .optional(),
  apiVersion: z.string().min(1).optional(),
  /** Which OpenAI API the deployments are called with: Chat Completions (default) or Responses. */
  wire: z.enum(["openai-chat", "openai-responses"]).optional(),
  /** Microsoft Entra ID tokens instead of an `api-key` (loaded through @azure/identity only when set). */
  entra: z
    .object({
      tenantId: z.string().min(1).optional(),
      clientId: z.string().min(1).optional(),
      /** Environment variable holding the app registration's client secret; without it DefaultAzureCredential is used. */
      clientSecretEnv: z
        .string()
        .regex(/^[A-Za-z_][A-Za-z0-9_]*$/, "expected an environment variable name")
        .optional(),
      scope: z.string().min(1).optional(),
    })
    .optional(),
});

/** `api: "vertex"`: the project and region, which publisher's models, and where service-account tokens come from. */
export const VertexConfigSchema = z.object({
  project: z.string().min(1),
  location: z.string().regex(/^[a-z0-9-]+$/, 'expected a Vertex location such as "us-east5" or "global"'),
  /** Gemini (`google`, generateContent) or Claude (`anthropic`, rawPredict); one provider entry serves one publisher. */
  publisher: z.enum(["google", "anthropic"]).default("google"),
  /** A service-account key file; without it (and without a profile key) Application Default Credentials are used. */
  keyFile: z.string().min(1).optional(),
  /** The OAuth token endpoint for service-account tokens (Google's by default; a test points it at loopback). */
  tokenUrl: httpUrl().optional(),
});

/**
 * Every field is optional here because built-in providers (provider-defaults.ts) supply them;
 * cross-checks.ts requires `api` and `baseUrl` for providers without built-in defaults.
 */
export const ProviderConfigSchema = z.object({
  api: ProviderApiSchema.optional(),
  baseUrl: httpUrl().optional(),
  headers: recordOf("<name>", z.string()).optional(),
  timeoutSeconds: positiveNumber().optional(),
  cooldowns: z.boolean().optional(),
  oauth: z.object({ tokenUrl: httpUrl().optional(), clientId: z.string().min(1).optional() }).optional(),
  models: z.array(ProviderModelDeclarationSchema).optional(),
  /** R-PO-8: the in-flight limit of each profile of this provider that sets none of its own. */
  maxConcurrentPerProfile: positiveInteger().optional(),
  azure: AzureOpenAiConfigSchema.optional(),
  vertex: VertexConfigSchema.optional(),
  /** `api: "bedrock"`: the AWS region; absent, the base URL's or AWS_REGION. */
  region: z
    .string()
    .regex(/^[a-z]{2}(?:-[a-z]+)+-\d+$/, 'expected an AWS region such as "us-east-1"')
    .optional(),
  /** `api: "bedrock"`: a named profile of the AWS shared credentials file, used when no Detour profile holds keys. */
  awsProfile: z.string().min(1).optional(),
});

export const ProfileConfigSchema = z.object({
  provider: z.string().refine(isProviderId, { error: 'expected a provider id such as "openai"' }),
  mode: z.enum(["api_key", "oauth", "token"]),
  email: z.string().min(1).optional(),
  keyRef: z
    .object({
      env: z.string().regex(/^[A-Za-z_][A-Za-z0-9_]*$/, "expected an environment variable name"),
    })
    .optional(),
  /** R-PO-8: the most attempts in flight on this profile at once (subscription accounts cap parallel sessions). */
  maxConcurrent: positiveInteger().optional(),
});

/**
 * Invalid cooldown numbers never reach this schema: cooldown-settings.ts replaces them with the
 * defaults (and a warning) first, as SPEC R-CF-3 asks. The constraints here document the valid range.
 */
export const CooldownsConfigSchema = z.object({
  billingBackoffHours: positiveNumber().default(DEFAULT_COOLDOWNS.billingBackoffHours),
  billingBackoffHoursByProvider: recordOf("<provider>", positiveNumber()).default(() => ({})),
  billingMaxHours: positiveNumber().default(DEFAULT_COOLDOWNS.billingMaxHours),
  authPermanentBackoffMinutes: positiveNumber().default(DEFAULT_COOLDOWNS.authPermanentBackoffMinutes),
  authPermanentMaxMinutes: positiveNumber().default(DEFAULT_COOLDOWNS.authPermanentMaxMinutes),
  failureWindowHours: positiveNumber().default(DEFAULT_COOLDOWNS.failureWindowHours),
  overloadedProfileRotations: positiveInteger().default(DEFAULT_COOLDOWNS.overloadedProfileRotations),
  overloadedBackoffMs: nonNegativeNumber().default(DEFAULT_COOLDOWNS.overloadedBackoffMs),
  rateLimitedProfileRotations: positiveInteger().default(DEFAULT_COOLDOWNS.rateLimitedProfileRotations),
  ladderSeconds: z
    .array(positiveNumber())
    .min(1)
    .default(() => [...DEFAULT_COOLDOWNS.ladderSeconds]),
  timeoutLadderSeconds: z
    .array(positiveNumber())
    .min(1)
    .default(() => [...DEFAULT_COOLDOWNS.timeoutLadderSeconds]),
});

const HeadroomConfigSchema = z.object({
  minRemaining: z.number().min(0).max(1).default(DEFAULT_HEADROOM.minRemaining),
  strategy: z.enum(["spread", "drain-soonest-reset"]).default(DEFAULT_HEADROOM.strategy),
});

const AuthConfigSchema = z.object({
  profiles: recordOf("<profileId>", ProfileConfigSchema).default(() => ({})),
  order: recordOf("<provider>", z.array(z.string().min(1))).default(() => ({})),
  cooldowns: CooldownsConfigSchema.prefault({}),
  headroom: HeadroomConfigSchema.prefault({}),
});

/** `agents.defaults.model`: a bare string means `{ primary }` (R-CF-3). */
const DefaultModelSelectionSchema = z
  .union([ModelRefSchema, z.object({ primary: ModelRefSchema.optional(), fallbacks: z.array(ModelRefSchema).default(() => []) })])
  .transform((value): { primary?: string; fallbacks: string[] } => (typeof value === "string" ? { primary: value, fallbacks: [] } : value));

/**
 * `agents.list[].model` keeps the written form: whether an agent states its own `fallbacks` changes
 * how strict its selection is (R-CH-2), so `{ primary }` and `{ primary, fallbacks: [] }` differ.
 */
const AgentModelSelectionSchema = z.union([
  ModelRefSchema,
  z.object({ primary: ModelRefSchema, fallbacks: z.array(ModelRefSchema).optional() }),
]);

const HeartbeatConfigSchema = z.object({ model: ModelRefSchema.optional() });

const retryBackoffRange = z
  .tuple([nonNegativeNumber(), nonNegativeNumber()])
  .refine(([min, max]) => min <= max, { error: "expected [min, max] with min not above max" });

const ModelFailoverConfigSchema = z.object({
  retrySameProfileOnTimeout: wholeNumber().nonnegative().default(DEFAULT_MODEL_FAILOVER.retrySameProfileOnTimeout),
  retrySameProfileOnServerError: wholeNumber().nonnegative().default(DEFAULT_MODEL_FAILOVER.retrySameProfileOnServerError),
  retryBackoffMs: retryBackoffRange.default((): [number, number] => {
    const [min, max] = DEFAULT_MODEL_FAILOVER.retryBackoffMs;
    return [min, max];
  }),
  shortWaitSeconds: nonNegativeNumber().default(DEFAULT_MODEL_FAILOVER.shortWaitSeconds),
  waitForCooldownMaxSeconds: nonNegativeNumber().default(DEFAULT_MODEL_FAILOVER.waitForCooldownMaxSeconds),
  hedging: z
    .object({
      enabled: z.boolean().default(DEFAULT_HEDGING.enabled),
      afterMs: positiveNumber().optional(),
      maxExtra: wholeNumber().nonnegative().default(DEFAULT_HEDGING.maxExtra),
      budgetPercent: nonNegativeNumber().max(100).default(DEFAULT_HEDGING.budgetPercent),
      burst: nonNegativeNumber().default(DEFAULT_HEDGING.burst),
    })
    .prefault({}),
});

const AgentDefaultsConfigSchema = z.object({
  model: DefaultModelSelectionSchema.default(() => ({ fallbacks: [] })),
  models: recordOf("<provider/model>", z.object({ alias: z.string().min(1).optional() })).default(() => ({})),
  timeoutSeconds: positiveNumber().default(DEFAULT_AGENT_TIMEOUT_SECONDS),
  modelFailover: ModelFailoverConfigSchema.prefault({}),
  heartbeat: HeartbeatConfigSchema.prefault({}),
});

export const AgentEntryConfigSchema = z.object({
  id: agentId(),
  model: AgentModelSelectionSchema.optional(),
  heartbeat: HeartbeatConfigSchema.optional(),
});

const AgentsConfigSchema = z.object({
  defaults: AgentDefaultsConfigSchema.prefault({}),
  list: z.array(AgentEntryConfigSchema).default(() => []),
});

const cronSchedule = z.string().superRefine((pattern, context) => {
  try {
    // Without a callback croner only parses the pattern; it starts no timer.
    new Cron(pattern, { paused: true });
  } catch (error) {
    const detail = error instanceof Error ? error.message.replace(/^CronPattern:\s*/, "").replace(/\.$/, "") : String(error);
    context.addIssue({ code: "custom", message: `expected a cron expression (${detail})` });
  }
});

export const CronJobConfigSchema = z.object({
  id: z.string().min(1),
  schedule: cronSchedule,
  agentId: agentId().optional(),
  sessionKey: z.string().min(1).optional(),
  payload: z.object({
    message: z.string().min(1),
    model: ModelRefSchema.optional(),
    fallbacks: z.array(ModelRefSchema).optional(),
  }),
});

const GatewayConfigSchema = z.object({
  host: z.string().min(1).default(DEFAULT_GATEWAY.host),
  // 0 asks the OS for a free port (tests, demos).
  port: wholeNumber().min(0).max(65535).default(DEFAULT_GATEWAY.port),
  auth: z
    .object({
      tokens: z.array(z.string().min(1)).optional(),
      adminTokens: z.array(z.string().min(1)).optional(),
    })
    .prefault({}),
  notices: z.enum(["header", "inline"]).default(DEFAULT_GATEWAY.notices),
  // Unset: 15 s, or 60 s for catalogue reasoning models (R-ST-6), resolved per candidate by the engine.
  ttftTimeoutSeconds: positiveNumber().optional(),
  streamStallSeconds: positiveNumber().default(DEFAULT_GATEWAY.streamStallSeconds),
  streamContinuations: wholeNumber().nonnegative().default(DEFAULT_GATEWAY.streamContinuations),
  maxBodyMb: positiveNumber().default(DEFAULT_GATEWAY.maxBodyMb),
  // R-PO-8: how long, and how many, requests wait for a seat when every usable profile is full (0: none wait).
  queueTimeoutSeconds: nonNegativeNumber().default(DEFAULT_GATEWAY.queueTimeoutSeconds),
  queueMax: wholeNumber().nonnegative().default(DEFAULT_GATEWAY.queueMax),
  // R-GW-13: names (with or without a port) and origins answered besides the gateway's own loopback ones.
  allowedHosts: z.array(allowedHost()).default(() => []),
  allowedOrigins: z.array(allowedOrigin()).default(() => []),
});

const StateConfigSchema = z.object({
  backend: z.enum(["sqlite", "redis", "memory"]).default(DEFAULT_STATE_BACKEND),
  redis: z
    .object({
      url: z.url({ protocol: /^rediss?$/, error: "expected a redis:// or rediss:// URL" }),
      keyPrefix: z.string().min(1).default(DEFAULT_REDIS_KEY_PREFIX),
    })
    .optional(),
});

export const DetourConfigSchema = z
  .object({
    models: z.object({ providers: recordOf("<id>", ProviderConfigSchema).default(() => ({})) }).prefault({}),
    auth: AuthConfigSchema.prefault({}),
    agents: AgentsConfigSchema.prefault({}),
    cron: z.object({ jobs: z.array(CronJobConfigSchema).default(() => []) }).prefault({}),
    gateway: GatewayConfigSchema.prefault({}),
    state: StateConfigSchema.prefault({}),
    sessions: z
      .object({
        idleTtlDays: positiveNumber().default(DEFAULT_SESSIONS.idleTtlDays),
        // R-GW-8: per agent, the least recently used evicted first.
        maxCount: positiveInteger().default(DEFAULT_SESSIONS.maxCount),
      })
      .prefault({}),
    trace: z
      .object({
        keepRuns: positiveInteger().default(DEFAULT_TRACE.keepRuns),
        keepHours: positiveNumber().default(DEFAULT_TRACE.keepHours),
      })
      .prefault({}),
  })
  // Cross-field rules run even when single fields failed, so every problem is listed at once (R-CF-2).
  .superRefine(crossCheckConfig, { when: () => true });

type DeepReadonly<T> = T extends (infer Item)[]
  ? readonly DeepReadonly<Item>[]
  : T extends readonly (infer Item)[]
    ? readonly DeepReadonly<Item>[]
    : T extends object
      ? { readonly [Key in keyof T]: DeepReadonly<T[Key]> }
      : T;

/** What a config file may contain (every key optional where a default exists). */
export type DetourConfigInput = z.input<typeof DetourConfigSchema>;
/** A parsed config: every default applied, deep-frozen. */
export type DetourConfig = DeepReadonly<z.output<typeof DetourConfigSchema>>;
export type ProviderApi = z.output<typeof ProviderApiSchema>;
export type ProviderConfig = DetourConfig["models"]["providers"][string];
export type AzureOpenAiConfig = NonNullable<ProviderConfig["azure"]>;
export type VertexConfig = NonNullable<ProviderConfig["vertex"]>;
export type ProviderModelDeclaration = DeepReadonly<z.output<typeof ProviderModelDeclarationSchema>>;
export type AgentEntryConfig = DetourConfig["agents"]["list"][number];
export type CronJobConfig = DetourConfig["cron"]["jobs"][number];
export type GatewayConfig = DetourConfig["gateway"];
export type StateConfig = DetourConfig["state"];
