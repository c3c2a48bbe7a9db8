/**
 * Every credential an agent can use: profiles in its state store, profiles whose key comes from an
 * environment variable (`auth.profiles.<id>.keyRef.env`, R-AP-2) and, for the gateway and `detour run`,
 * the usual provider variables when nothing else is configured (R-CF-5). Secrets stay inside the returned
 * credentials and never reach logs.
 */
import type { DetourConfig } from "../config/index.js";
import type { Credential, ProfileConfig } from "../core/types.js";
import type { StateStore } from "../ports/state-store.js";
import type { ProfileSource, ProviderProfiles } from "../runner/runner-deps.js";
import type { OAuthRefresher } from "./oauth-refresh.js";

/** R-CF-5: well-known variables and the provider each one unlocks, as profile `<provider>:env`. */
export const ENV_CREDENTIAL_VARIABLES: readonly { variable: string; provider: string }[] = [
  { variable: "OPENAI_API_KEY", provider: "openai" },
  { variable: "ANTHROPIC_API_KEY", provider: "anthropic" },
  { variable: "GEMINI_API_KEY", provider: "google" },
  { variable: "GOOGLE_API_KEY", provider: "google" },
  { variable: "OPENROUTER_API_KEY", provider: "openrouter" },
];

export type ProfileOrigin = "store" | "env";

export interface KnownProfile {
  id: string;
  credential?: Credential;
  origin: ProfileOrigin;
}

function envCredential(config: ProfileConfig, value: string): Credential | undefined {
  switch (config.mode) {
    case "api_key":
      return { type: "api_key", provider: config.provider, key: value };
    case "token":
    case "oauth":
      // An env variable holds a static bearer token; an `oauth` mode accepts a token credential (R-PO-1).
      return { type: "token", provider: config.provider, token: value };
  }
}

export class AgentProfileSource implements ProfileSource {
  readonly #store: StateStore;
  readonly #config: DetourConfig;
  readonly #env: Readonly<Record<string, string | undefined>>;
  readonly #discoverEnvCredentials: boolean;
  readonly #oauthRefresher?: OAuthRefresher;

  constructor(options: {
    store: StateStore;
    config: DetourConfig;
    env: Readonly<Record<string, string | undefined>>;
    discoverEnvCredentials: boolean;
    /** R-AP-5: refreshes OAuth credentials near expiry before an attempt uses them. */
    oauthRefresher?: OAuthRefresher;
  }) {
    this.#store = options.store;
    this.#config = options.config;
    this.#env = options.env;
    this.#discoverEnvCredentials = options.discoverEnvCredentials;
    this.#oauthRefresher = options.oauthRefresher;
  }

  get configuredProfiles(): Readonly<Record<string, ProfileConfig>> {
    return this.#config.auth.profiles as Readonly<Record<string, ProfileConfig>>;
  }

  /** Every known profile of every provider; an env-backed key wins over a stored one of the same id. */
  async all(): Promise<KnownProfile[]> {
    const byId = new Map<string, KnownProfile>();
    for (const stored of await this.#store.listProfiles()) {
      byId.set(stored.id, { id: stored.id, credential: stored.credential, origin: "store" });
    }
    for (const [id, profile] of Object.entries(this.configuredProfiles)) {
      const variable = profile.keyRef?.env;
      if (variable === undefined) continue;
      const value = this.#env[variable]?.trim();
      // A missing variable leaves the profile without a credential; orderProfiles drops it with a reason.
      byId.set(id, { id, credential: value ? envCredential(profile, value) : byId.get(id)?.credential, origin: "env" });
    }
    if (this.#discoverEnvCredentials && byId.size === 0 && Object.keys(this.configuredProfiles).length === 0) {
      for (const { variable, provider } of ENV_CREDENTIAL_VARIABLES) {
        const value = this.#env[variable]?.trim();
        const id = `${provider}:env`;
        if (value && !byId.has(id)) byId.set(id, { id, credential: { type: "api_key", provider, key: value }, origin: "env" });
      }
    }
    return [...byId.values()];
  }

  /** R-AP-5: only stored OAuth credentials are refreshed; keys and static tokens are used as listed. */
  async credentialForAttempt(profileId: string, credential: Credential, signal: AbortSignal): Promise<Credential> {
    if (credential.type !== "oauth" || !this.#oauthRefresher) return credential;
    return this.#oauthRefresher.ensureFresh(profileId, credential, signal);
  }

  async forProvider(provider: string): Promise<ProviderProfiles> {
    const [profiles, storedOrder] = await Promise.all([this.all(), this.#store.getStoredOrder(provider)]);
    const configuredOrder = Object.hasOwn(this.#config.auth.order, provider) ? this.#config.auth.order[provider] : undefined;
    return {
      profiles: profiles.map(({ id, credential }) => (credential ? { id, credential } : { id })),
      ...(storedOrder ? { storedOrder } : {}),
      ...(configuredOrder ? { configuredOrder } : {}),
      configuredProfiles: this.configuredProfiles,
    };
  }
}
