/**
 * A Detour for unit tests of the canonical runner and the gateway: memory store seeded with api-key profiles,
 * ScriptedProviders for `openai` and `anthropic`, and a canonical runner wired like the real one.
 */
import type { DetourConfigInput } from "../../config/index.js";
import type { Clock } from "../../ports/clock.js";
import { MemoryStateStore } from "../../state/memory/memory-store.js";
import { ScriptedProvider } from "../../testing/scripted-provider.js";
import { SeededRandom } from "../../testing/seeded-random.js";
import { createDetour, type Detour } from "../create-detour.js";
import { createCanonicalRunner, type CanonicalRunner } from "../../pipe/run-canonical.js";

export interface ScriptedDetour {
  detour: Detour;
  runner: CanonicalRunner;
  store: MemoryStateStore;
  openai: ScriptedProvider;
  anthropic: ScriptedProvider;
}

export const TEST_SECRETS = {
  openaiA: "sk-test-openai-a-0123456789",
  openaiB: "sk-test-openai-b-0123456789",
  anthropicA: "sk-ant-test-a-0123456789",
} as const;

export async function createScriptedDetour(options: {
  clock: Clock;
  config?: DetourConfigInput;
  ttftTimeoutSeconds?: number;
  streamStallSeconds?: number;
}): Promise<ScriptedDetour> {
  const store = new MemoryStateStore();
  await store.upsertProfile({ id: "openai:a", credential: { type: "api_key", provider: "openai", key: TEST_SECRETS.openaiA } });
  await store.upsertProfile({ id: "openai:b", credential: { type: "api_key", provider: "openai", key: TEST_SECRETS.openaiB } });
  await store.upsertProfile({
    id: "anthropic:a",
    credential: { type: "api_key", provider: "anthropic", key: TEST_SECRETS.anthropicA },
  });
  const openai = new ScriptedProvider({ id: "openai", clock: options.clock });
  const anthropic = new ScriptedProvider({ id: "anthropic", api: "anthropic-messages", clock: options.clock });
  const config: DetourConfigInput = options.config ?? {
    agents: {
      defaults: {
        model: { primary: "openai/gpt-a", fallbacks: ["anthropic/claude-b"] },
        modelFailover: {
          retrySameProfileOnTimeout: 0,
          retrySameProfileOnServerError: 0,
          shortWaitSeconds: 0,
          waitForCooldownMaxSeconds: 0,
        },
      },
    },
    state: { backend: "memory" },
  };
  const detour = await createDetour({
    config,
    store,
    clock: options.clock,
    random: new SeededRandom(7),
    providers: [openai, anthropic],
    env: {},
  });
  const runner = createCanonicalRunner(detour, detour.providers, {
    clock: options.clock,
    ttftTimeoutSeconds: options.ttftTimeoutSeconds ?? 1,
    streamStallSeconds: options.streamStallSeconds ?? 2,
  });
  return { detour, runner, store, openai, anthropic };
}
