/**
 * Creates providers from `models.providers.<id>` settings (R-CF-3) and keeps them by provider id.
 * The `api` field picks the wire format; the id is free (`openrouter`, `my-vllm`, …).
 */
import { ERROR_CODES, ConfigError, DetourError } from "../core/errors.js";
import { PROVIDER_API_LIST } from "../core/provider-apis.js";
import type { Provider, ProviderApi } from "../ports/provider.js";
import { wireFormatIdOf } from "../wire/formats.js";
import { anthropicQuirks } from "./anthropic/quirks.js";
import { azureOpenAiQuirks } from "./azure-openai/quirks.js";
import { bedrockQuirks } from "./bedrock/quirks.js";
import { googleQuirks } from "./google/quirks.js";
import { HttpProvider } from "./http-provider.js";
import { ollamaQuirks } from "./ollama/quirks.js";
import { openAiQuirks } from "./openai/quirks.js";
import { openAiResponsesQuirks } from "./openai-responses/quirks.js";
import type { ProviderQuirks } from "./shared/provider-quirks.js";
import type { ProviderSettings } from "./shared/provider-settings.js";
import { vertexQuirks } from "./vertex/quirks.js";

export const PROVIDER_APIS: readonly ProviderApi[] = PROVIDER_API_LIST;

/** What sets each API's provider apart: its endpoint (URL, auth, signing). The wire format does the rest. */
const PROVIDER_QUIRKS: Readonly<Record<ProviderApi, ProviderQuirks>> = {
  "openai-chat": openAiQuirks,
  "openai-responses": openAiResponsesQuirks,
  "anthropic-messages": anthropicQuirks,
  "google-generative-ai": googleQuirks,
  ollama: ollamaQuirks,
  bedrock: bedrockQuirks,
  "azure-openai": azureOpenAiQuirks,
  vertex: vertexQuirks,
};

export function createProvider(settings: ProviderSettings): Provider {
  // An older name of a format (`openai-completions`) builds the same provider, under the format's one id.
  const api: unknown = typeof settings.api === "string" ? (wireFormatIdOf(settings.api) ?? settings.api) : settings.api;
  if (typeof api !== "string" || !Object.hasOwn(PROVIDER_QUIRKS, api)) {
    throw new ConfigError([
      { path: `models.providers.${settings.id}.api`, message: `expected one of ${PROVIDER_APIS.join(", ")}, got ${JSON.stringify(api)}` },
    ]);
  }
  if (!isHttpUrl(settings.baseUrl)) {
    throw new ConfigError([
      { path: `models.providers.${settings.id}.baseUrl`, message: `expected an http(s) URL, got ${JSON.stringify(settings.baseUrl)}` },
    ]);
  }
  const quirks = PROVIDER_QUIRKS[api as ProviderApi];
  return new HttpProvider({ ...settings, api: quirks.api }, quirks);
}

function isHttpUrl(value: string): boolean {
  try {
    const { protocol } = new URL(value);
    return protocol === "http:" || protocol === "https:";
  } catch {
    return false;
  }
}

/** A model ref names a provider id that no configuration defines. */
export class UnknownProviderError extends DetourError {
  readonly code = ERROR_CODES.unknownProvider;
  readonly provider: string;

  constructor(provider: string, known: readonly string[]) {
    super(
      `No provider "${provider}" is configured (known: ${known.length > 0 ? known.join(", ") : "none"}). ` +
        `Add models.providers.${provider} with an api and baseUrl, or fix the model ref.`,
    );
    this.provider = provider;
  }
}

export class ProviderRegistry {
  private readonly providers = new Map<string, Provider>();

  constructor(providers: Iterable<Provider> = []) {
    for (const provider of providers) this.providers.set(provider.id, provider);
  }

  get(id: string): Provider | undefined {
    return this.providers.get(id);
  }

  /** Like `get`, but a missing provider is a typed error that tells the user what to configure. */
  require(id: string): Provider {
    const provider = this.providers.get(id);
    if (!provider) throw new UnknownProviderError(id, this.ids());
    return provider;
  }

  has(id: string): boolean {
    return this.providers.has(id);
  }

  ids(): string[] {
    return [...this.providers.keys()];
  }
}

/** Settings shared by every provider of a registry (connection pool, malformed-chunk counter, ids). */
export type SharedProviderOptions = Pick<ProviderSettings, "dispatcher" | "onMalformedChunk" | "createToolCallId" | "createResponseId">;

/** One provider per `models.providers` entry; every invalid entry is reported at once. */
export function createProviderRegistry(
  settingsById: Readonly<Record<string, Omit<ProviderSettings, "id">>>,
  shared: SharedProviderOptions = {},
): ProviderRegistry {
  const providers: Provider[] = [];
  const issues: ConfigError["issues"][number][] = [];
  for (const [id, settings] of Object.entries(settingsById)) {
    try {
      providers.push(createProvider({ ...shared, ...settings, id }));
    } catch (error) {
      if (!(error instanceof ConfigError)) throw error;
      issues.push(...error.issues);
    }
  }
  if (issues.length > 0) throw new ConfigError(issues);
  return new ProviderRegistry(providers);
}
