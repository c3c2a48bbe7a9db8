/**
 * The Detour configuration behind an AI SDK model: the caller's config with one profile per API key the
 * candidates hold. The keys stay inside the AI SDK models; each profile's credential is a marker in an
 * environment Detour reads only here, so the runner can order, rotate and cool profiles down like any other.
 * A library keeps its state in memory unless the config or a store says otherwise.
 */
import type { DetourConfigInput } from "../config/index.js";
import type { CandidatePlan } from "./candidates.js";

/** What the marker credential says if anything ever prints it: the real key lives in the AI SDK model. */
const KEY_HELD_BY_THE_MODEL = "held-by-the-ai-sdk-model";

type ProfileInput = NonNullable<NonNullable<DetourConfigInput["auth"]>["profiles"]>[string];

export function detourConfigFor(
  plan: CandidatePlan,
  given: DetourConfigInput | undefined,
  storeGiven: boolean,
): { config: DetourConfigInput; env: Record<string, string | undefined> } {
  const profiles: Record<string, ProfileInput> = {};
  const env: Record<string, string | undefined> = { ...process.env };
  let index = 0;
  for (const [provider, ids] of plan.profilesByProvider) {
    for (const id of ids) {
      index += 1;
      const variable = `AI_SDK_PROFILE_KEY_${index}`;
      env[variable] = KEY_HELD_BY_THE_MODEL;
      profiles[id] = { provider, mode: "api_key", keyRef: { env: variable } };
    }
  }
  const base = given ?? {};
  const state = base.state ?? {};
  return {
    config: {
      ...base,
      auth: { ...base.auth, profiles: { ...base.auth?.profiles, ...profiles } },
      state: storeGiven || state.backend !== undefined ? state : { ...state, backend: "memory" },
    },
    env,
  };
}
