/**
 * What the demo runs against: two OpenAI keys (profiles of provider `openai` in a stored order), one
 * Anthropic key, and a config whose primary is an OpenAI model with an Anthropic fallback. The keys are
 * obviously fake; they only ever travel to the demo's own mock providers on 127.0.0.1.
 */
import type { DetourConfigInput } from "../config/index.js";

export const DEMO_SESSION = "demo-chat";
export const PRIMARY_MODEL = "openai/gpt-4o-mini";
export const FALLBACK_MODEL = "anthropic/claude-sonnet-4-5";

export interface DemoProfile {
  readonly id: string;
  readonly provider: "openai" | "anthropic";
  /** A placeholder key; the mock providers recognise profiles by it. */
  readonly key: string;
}

export const DEMO_PROFILES = {
  alpha: { id: "openai:alpha", provider: "openai", key: "sk-demo-openai-alpha-not-a-real-key" },
  beta: { id: "openai:beta", provider: "openai", key: "sk-demo-openai-beta-not-a-real-key" },
  claude: { id: "anthropic:main", provider: "anthropic", key: "sk-ant-demo-main-not-a-real-key" },
} as const satisfies Record<string, DemoProfile>;

export const DEMO_PROFILE_LIST: readonly DemoProfile[] = Object.values(DEMO_PROFILES);

/**
 * Seats per account: like a subscription that allows only so many sessions at once. Detour never has more
 * attempts in flight on a profile; the mock providers refuse one more with a concurrency 429, so a breach
 * would show.
 */
export const DEMO_SEATS_PER_ACCOUNT = 2;

/** The stored order of the OpenAI keys (R-AP-3): alpha first, beta second. */
export const OPENAI_STORED_ORDER: readonly string[] = [DEMO_PROFILES.alpha.id, DEMO_PROFILES.beta.id];

export interface MockEndpoints {
  /** Base URL of the mock speaking the OpenAI wire format (without `/v1`). */
  openai: string;
  /** Base URL of the mock speaking the Anthropic wire format. */
  anthropic: string;
}

/**
 * The generated config. Profiles carry metadata only; the keys live in the demo's temporary store (R-AP-2).
 * Everything else keeps Detour's defaults, so the demo shows what a real user gets.
 */
export function buildDemoConfig(mocks: MockEndpoints): DetourConfigInput {
  return {
    models: {
      providers: {
        openai: { api: "openai-chat", baseUrl: `${mocks.openai}/v1`, timeoutSeconds: 10 },
        anthropic: { api: "anthropic-messages", baseUrl: mocks.anthropic, timeoutSeconds: 10 },
      },
    },
    auth: {
      profiles: Object.fromEntries(
        DEMO_PROFILE_LIST.map((profile) => [
          profile.id,
          { provider: profile.provider, mode: "api_key", maxConcurrent: DEMO_SEATS_PER_ACCOUNT },
        ]),
      ),
    },
    agents: { defaults: { model: { primary: PRIMARY_MODEL, fallbacks: [FALLBACK_MODEL] } } },
    gateway: { host: "127.0.0.1", port: 0 },
    state: { backend: "sqlite" },
  };
}

/** Which demo profile a key belongs to (mock recordings count by key; the demo shows profile ids only). */
export function profileIdForKey(key: string): string | undefined {
  return DEMO_PROFILE_LIST.find((profile) => profile.key === key)?.id;
}
