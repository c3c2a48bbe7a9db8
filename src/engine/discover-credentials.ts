/**
 * R-CF-5: what the gateway and `detour run` can use when nobody configured anything. With no configured and
 * no stored profiles, the usual provider variables become profiles `<provider>:env` (the profile source does
 * the actual wiring, see `ENV_CREDENTIAL_VARIABLES`) and a local Ollama that answers becomes a keyless
 * provider. With nothing at all, `NoCredentialsError` explains the three ways to add a credential.
 *
 * The Ollama probe only ever calls the loopback default or the address the user put in OLLAMA_HOST, with a
 * short timeout, so a missing Ollama costs a fraction of a second and never reaches the network.
 */
import type { DetourConfig } from "../config/index.js";
import { ERROR_CODES, DetourError } from "../core/errors.js";
import type { StateStore } from "../ports/state-store.js";
import { ENV_CREDENTIAL_VARIABLES } from "./profile-source.js";

export const DEFAULT_OLLAMA_URL = "http://127.0.0.1:11434";
export const OLLAMA_PROBE_TIMEOUT_MS = 400;
const OLLAMA_DEFAULT_PORT = "11434";

export interface DiscoveredEnvProfile {
  profileId: string;
  provider: string;
  /** The variable the key comes from (never the key itself). */
  variable: string;
}

export interface DiscoveredOllama {
  baseUrl: string;
  /** Model names the local Ollama lists (`/api/tags`), in its order. */
  models: string[];
}

export type CredentialDiscovery =
  /** Profiles are configured or stored: discovery stays out of the way. */
  { kind: "configured" } | { kind: "discovered"; envProfiles: DiscoveredEnvProfile[]; ollama?: DiscoveredOllama; suggestedModel?: string };

export type FetchLike = (input: string, init?: { signal?: AbortSignal }) => Promise<{ ok: boolean; json(): Promise<unknown> }>;

export interface DiscoverCredentialsInput {
  config: DetourConfig;
  store: Pick<StateStore, "listProfiles">;
  env: Readonly<Record<string, string | undefined>>;
  fetch?: FetchLike;
  ollamaTimeoutMs?: number;
}

export class NoCredentialsError extends DetourError {
  readonly code = ERROR_CODES.noCredentials;

  constructor() {
    super(
      "Detour has no credential to call a model with: no profile is configured or stored, none of " +
        `${ENV_CREDENTIAL_VARIABLES.map((entry) => entry.variable).join(", ")} is set, and no local Ollama ` +
        `answered at $OLLAMA_HOST or ${DEFAULT_OLLAMA_URL.replace("http://", "")}. Add one in any of three ways: ` +
        "(1) export a provider key, e.g. `export OPENAI_API_KEY=sk-…`; " +
        "(2) store one with `detour auth add openai --key -` (the key is read from stdin, so it stays out of " +
        "your shell history); " +
        "(3) write a detour.json5 with `auth.profiles.<id>.keyRef.env` naming the variable that holds the key " +
        "(see docs/configuration.md). Try `detour demo` to see Detour work without any key.",
    );
  }
}

/**
 * OLLAMA_HOST as Ollama itself reads it: `host`, `host:port` or a URL; `0.0.0.0` (listen on all interfaces)
 * is reached through loopback. Returns undefined for text that is not an address.
 */
export function ollamaBaseUrl(env: Readonly<Record<string, string | undefined>>): string | undefined {
  const raw = env.OLLAMA_HOST?.trim();
  if (!raw) return DEFAULT_OLLAMA_URL;
  const withScheme = /^[a-z][a-z0-9+.-]*:\/\//i.test(raw) ? raw : `http://${raw}`;
  let url: URL;
  try {
    url = new URL(withScheme);
  } catch {
    return undefined;
  }
  if (url.protocol !== "http:" && url.protocol !== "https:") return undefined;
  if (url.hostname === "0.0.0.0") url.hostname = "127.0.0.1";
  if (url.hostname === "[::]") url.hostname = "[::1]";
  if (url.port === "" && !/:\d+(\/|$)/.test(raw.replace(/^[a-z]+:\/\//i, ""))) url.port = OLLAMA_DEFAULT_PORT;
  return url.origin;
}

function modelNames(body: unknown): string[] {
  if (typeof body !== "object" || body === null || !("models" in body) || !Array.isArray(body.models)) return [];
  return body.models.flatMap((entry: unknown) => {
    if (typeof entry !== "object" || entry === null) return [];
    const name = "name" in entry ? entry.name : "model" in entry ? entry.model : undefined;
    return typeof name === "string" && name !== "" ? [name] : [];
  });
}

/** Asks a local Ollama for its models; undefined when nothing (or something else) answers in time. */
export async function probeOllama(baseUrl: string, fetchImpl: FetchLike, timeoutMs: number): Promise<DiscoveredOllama | undefined> {
  const controller = new AbortController();
  const timer = setTimeout(() => controller.abort(), timeoutMs);
  try {
    const response = await fetchImpl(`${baseUrl}/api/tags`, { signal: controller.signal });
    if (!response.ok) return undefined;
    const body: unknown = await response.json();
    // Anything that is not Ollama's `{ models: [...] }` is some other server on that port.
    if (typeof body !== "object" || body === null || !("models" in body)) return undefined;
    return { baseUrl, models: modelNames(body) };
  } catch {
    return undefined;
  } finally {
    clearTimeout(timer);
  }
}

export function discoverEnvProfiles(env: Readonly<Record<string, string | undefined>>): DiscoveredEnvProfile[] {
  const found = new Map<string, DiscoveredEnvProfile>();
  for (const { variable, provider } of ENV_CREDENTIAL_VARIABLES) {
    const profileId = `${provider}:env`;
    // GEMINI_API_KEY comes before GOOGLE_API_KEY in the table and wins, as in the profile source.
    if (env[variable]?.trim() && !found.has(profileId)) found.set(profileId, { profileId, provider, variable });
  }
  return [...found.values()];
}

/**
 * Decides what a zero-config start can use. Throws NoCredentialsError when there is nothing: no profile, no
 * key variable, no answering Ollama and no configured provider (a configured keyless provider, such as a
 * local vLLM, is a deliberate setup and needs no credential).
 */
export async function discoverCredentials(input: DiscoverCredentialsInput): Promise<CredentialDiscovery> {
  const configuredProfiles = Object.keys(input.config.auth.profiles).length;
  if (configuredProfiles > 0 || (await input.store.listProfiles()).length > 0) return { kind: "configured" };

  const envProfiles = discoverEnvProfiles(input.env);
  const baseUrl = ollamaBaseUrl(input.env);
  const fetchImpl = input.fetch ?? (globalThis.fetch as unknown as FetchLike);
  const ollama = baseUrl ? await probeOllama(baseUrl, fetchImpl, input.ollamaTimeoutMs ?? OLLAMA_PROBE_TIMEOUT_MS) : undefined;
  const configuredProviders = Object.keys(input.config.models.providers).length;
  if (envProfiles.length === 0 && !ollama && configuredProviders === 0) throw new NoCredentialsError();

  // A model to start with when none is configured: only Ollama can tell which models it actually has.
  const firstOllamaModel = envProfiles.length === 0 ? ollama?.models[0] : undefined;
  return {
    kind: "discovered",
    envProfiles,
    ...(ollama ? { ollama } : {}),
    ...(firstOllamaModel !== undefined ? { suggestedModel: `ollama/${firstOllamaModel}` } : {}),
  };
}

/** Points the built-in `ollama` provider at the discovered server, unless the user configured its URL. */
export function withDiscoveredOllama(config: DetourConfig, discovery: CredentialDiscovery): DetourConfig {
  if (discovery.kind !== "discovered" || !discovery.ollama) return config;
  const configured = Object.hasOwn(config.models.providers, "ollama") ? config.models.providers.ollama : undefined;
  if (configured?.baseUrl !== undefined) return config;
  const copy = structuredClone(config) as { models: { providers: Record<string, Record<string, unknown>> } };
  copy.models.providers.ollama = { ...configured, baseUrl: discovery.ollama.baseUrl };
  return copy as unknown as DetourConfig;
}
