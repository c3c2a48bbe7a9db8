/**
 * Built-in provider settings (SPEC R-CF-3) and their merge with `models.providers.<id>`.
 * Every value here is only a default: a user entry for the same id overrides it field by field.
 */
import { DEFAULT_PROVIDER_TIMEOUT_SECONDS } from "./defaults.js";
import type { AzureOpenAiConfig, DetourConfig, ProviderApi, ProviderConfig, ProviderModelDeclaration, VertexConfig } from "./schema.js";

export interface OAuthEndpoint {
  readonly tokenUrl: string;
  readonly clientId: string;
}

export interface BuiltInProviderDefaults {
  readonly api: ProviderApi;
  readonly baseUrl: string;
  readonly cooldowns: boolean;
  readonly oauth?: OAuthEndpoint;
}

/**
 * Public OAuth clients of the vendors' own CLIs (refresh-token grant, R-AP-5). They are client ids,
 * not secrets. ChatGPT/Codex subscription logins are stored as `openai:<email>` profiles as well as
 * `openai-codex:<email>` ones (OpenClaw uses both), so both providers refresh through the same client.
 */
const CODEX_OAUTH: OAuthEndpoint = Object.freeze({
  tokenUrl: "https://auth.openai.com/oauth/token",
  clientId: "app_EMoamEEZ73f0CkXaXp7hrann",
});
const ANTHROPIC_OAUTH: OAuthEndpoint = Object.freeze({
  tokenUrl: "https://console.anthropic.com/v1/oauth/token",
  clientId: "9d1c250a-e61b-44d9-88ed-5944d1962f5e",
});

export const BUILT_IN_PROVIDERS: Readonly<Record<string, BuiltInProviderDefaults>> = Object.freeze({
  openai: Object.freeze({
    api: "openai-chat",
    baseUrl: "https://api.openai.com/v1",
    cooldowns: true,
    oauth: CODEX_OAUTH,
  }),
  anthropic: Object.freeze({
    api: "anthropic-messages",
    baseUrl: "https://api.anthropic.com",
    cooldowns: true,
    oauth: ANTHROPIC_OAUTH,
  }),
  google: Object.freeze({
    api: "google-generative-ai",
    baseUrl: "https://generativelanguage.googleapis.com/v1beta",
    cooldowns: true,
  }),
  // OpenRouter balances across its own upstreams: one upstream's 429 says little about the key,
  // so benching the key would only hide healthy routes.
  openrouter: Object.freeze({
    api: "openai-chat",
    baseUrl: "https://openrouter.ai/api/v1",
    cooldowns: false,
  }),
  ollama: Object.freeze({
    api: "ollama",
    baseUrl: "http://127.0.0.1:11434",
    cooldowns: true,
  }),
  // The ChatGPT/Codex backend speaks the Responses API (POST <baseUrl>/responses), not chat completions.
  "openai-codex": Object.freeze({
    api: "openai-responses",
    baseUrl: "https://chatgpt.com/backend-api/codex",
    cooldowns: true,
    oauth: CODEX_OAUTH,
  }),
});

export function builtInProviderDefaults(providerId: string): BuiltInProviderDefaults | undefined {
  return Object.hasOwn(BUILT_IN_PROVIDERS, providerId) ? BUILT_IN_PROVIDERS[providerId] : undefined;
}

/** A provider's effective settings: user entry over built-in defaults over global defaults. */
export interface ResolvedProviderSettings {
  readonly id: string;
  readonly api: ProviderApi;
  readonly baseUrl: string;
  readonly headers: Readonly<Record<string, string>>;
  /** Bounds one non-streamed attempt (R-CF-3). */
  readonly timeoutSeconds: number;
  /** `false`: failures of this provider never put its profiles on cooldown. */
  readonly cooldowns: boolean;
  readonly oauth?: OAuthEndpoint;
  readonly models: readonly ProviderModelDeclaration[];
  /** Detour knows this provider without any config entry. */
  readonly builtIn: boolean;
  /** `api: "azure-openai"`: API version, wire, Entra settings. */
  readonly azure?: AzureOpenAiConfig;
  /** `api: "vertex"`: project, location, publisher, token source. */
  readonly vertex?: VertexConfig;
  /** `api: "bedrock"`: the AWS region and shared-credentials profile, when configured. */
  readonly region?: string;
  readonly awsProfile?: string;
}

/**
 * A cloud's own address when the config gives none: Azure's `<resource>.openai.azure.com`, Vertex's regional
 * `<location>-aiplatform.googleapis.com/v1` (the `global` location has no prefix).
 */
function cloudBaseUrl(configured: ProviderConfig | undefined): string | undefined {
  if (configured?.api === "azure-openai" && configured.azure?.resource !== undefined) {
    return `https://${configured.azure.resource}.openai.azure.com`;
  }
  if (configured?.api === "vertex" && configured.vertex !== undefined) {
    const location = configured.vertex.location;
    return location === "global" ? "https://aiplatform.googleapis.com/v1" : `https://${location}-aiplatform.googleapis.com/v1`;
  }
  if (configured?.api === "bedrock" && configured.region !== undefined) return `https://bedrock-runtime.${configured.region}.amazonaws.com`;
  return undefined;
}

/**
 * Returns undefined for a provider that is neither built in nor configured: the caller reports it
 * (a model ref naming such a provider cannot be served).
 */
export function resolveProviderSettings(config: DetourConfig, providerId: string): ResolvedProviderSettings | undefined {
  const builtIn = builtInProviderDefaults(providerId);
  const configured = Object.hasOwn(config.models.providers, providerId) ? config.models.providers[providerId] : undefined;
  const api = configured?.api ?? builtIn?.api;
  const baseUrl = configured?.baseUrl ?? builtIn?.baseUrl ?? cloudBaseUrl(configured);
  // Validation requires both for providers without built-in defaults; this guards configs built by hand.
  if (api === undefined || baseUrl === undefined) return undefined;

  const tokenUrl = configured?.oauth?.tokenUrl ?? builtIn?.oauth?.tokenUrl;
  const clientId = configured?.oauth?.clientId ?? builtIn?.oauth?.clientId;
  const oauth = tokenUrl !== undefined && clientId !== undefined ? { tokenUrl, clientId } : undefined;

  return Object.freeze({
    id: providerId,
    api,
    baseUrl,
    headers: Object.freeze({ ...configured?.headers }),
    timeoutSeconds: configured?.timeoutSeconds ?? DEFAULT_PROVIDER_TIMEOUT_SECONDS,
    cooldowns: configured?.cooldowns ?? builtIn?.cooldowns ?? true,
    ...(oauth ? { oauth: Object.freeze(oauth) } : {}),
    models: configured?.models ?? [],
    builtIn: builtIn !== undefined,
    ...(configured?.azure ? { azure: configured.azure } : {}),
    ...(configured?.vertex ? { vertex: configured.vertex } : {}),
    ...(configured?.region ? { region: configured.region } : {}),
    ...(configured?.awsProfile ? { awsProfile: configured.awsProfile } : {}),
  });
}
