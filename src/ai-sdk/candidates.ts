/**
 * How AI SDK models become Detour's chain (SPEC R-LB-1). A candidate is one `provider/model` of the chain;
 * several instances of one provider and model (made with different API keys) are that provider's profiles,
 * so rotation, cooldowns and headroom apply per key. Named provider instances (`profiles`) serve every
 * candidate of their provider. The result says, for each attempt the runner makes, which AI SDK model to call.
 */
import type { LanguageModelV3 } from "@ai-sdk/provider";
import { ERROR_CODES, DetourError } from "../core/errors.js";

export const AI_SDK_ERROR_CODES = {
  candidatesInvalid: ERROR_CODES.aiSdkCandidatesInvalid,
} as const;

/** The candidates or profiles given to `createDetourModel` cannot form a chain; nothing was called. */
export class AiSdkCandidatesError extends DetourError {
  readonly code = AI_SDK_ERROR_CODES.candidatesInvalid;
}

/** One entry of `candidates`: an AI SDK model, optionally with the profile id its API key goes by. */
export type DetourCandidateInput = LanguageModelV3 | { model: LanguageModelV3; profile?: string };

/** A named provider instance (`createOpenAI({ apiKey })`): called with a model id, it returns a model. */
export type ProviderInstance = (modelId: string) => LanguageModelV3;

export interface ResolvedCandidate {
  provider: string;
  model: string;
  /** `provider/model`, as the runner names it. */
  ref: string;
  /** Profile id → the AI SDK model that calls with that profile's key. */
  byProfile: ReadonlyMap<string, LanguageModelV3>;
}

export interface CandidatePlan {
  candidates: readonly ResolvedCandidate[];
  /** Profile ids per provider, in the order they were given. */
  profilesByProvider: ReadonlyMap<string, readonly string[]>;
}

const PROVIDER_ID = /^[A-Za-z0-9][A-Za-z0-9._-]*$/;

/** `openai.chat`, `openai.responses` → `openai`: the AI SDK names a provider and its API with a dot. */
export function providerIdOf(model: LanguageModelV3): string {
  const id = model.provider.split(".")[0]?.replace(/[^A-Za-z0-9._-]/g, "-") ?? "";
  if (!PROVIDER_ID.test(id)) {
    throw new AiSdkCandidatesError(
      `The AI SDK model ${JSON.stringify(model.modelId)} has no usable provider name (${JSON.stringify(model.provider)}); ` +
        "pass a model made by an AI SDK provider package.",
    );
  }
  return id;
}

function isLanguageModel(value: unknown): value is LanguageModelV3 {
  if (typeof value !== "object" || value === null) return false;
  const model = value as Partial<LanguageModelV3>;
  return typeof model.doGenerate === "function" && typeof model.doStream === "function" && typeof model.modelId === "string";
}

function requireV3(model: LanguageModelV3, where: string): void {
  if (model.specificationVersion !== "v3") {
    throw new AiSdkCandidatesError(
      `${where} implements the AI SDK model specification ${JSON.stringify(model.specificationVersion)}; ` +
        'Detour needs "v3" models (ai 6 and the @ai-sdk/* 3.x provider packages).',
    );
  }
}

function profileProvider(profileId: string): string {
  const provider = profileId.split(":")[0] ?? "";
  if (!profileId.includes(":") || !PROVIDER_ID.test(provider)) {
    throw new AiSdkCandidatesError(
      `The profile id ${JSON.stringify(profileId)} must read "<provider>:<name>" (e.g. "openai:work"), so Detour knows ` +
        "which candidates it serves.",
    );
  }
  return provider;
}

/**
 * Groups the candidates into the chain and its profiles. Instance profiles are numbered per `provider/model`
 * (`openai:1`, `openai:2`, …) unless named; every candidate of a provider must be callable with every one of
 * that provider's profiles, or the runner could pick a key the candidate has no model for.
 */
export function planCandidates(
  inputs: readonly DetourCandidateInput[],
  namedProfiles: Readonly<Record<string, ProviderInstance>> = {},
): CandidatePlan {
  if (inputs.length === 0) {
    throw new AiSdkCandidatesError('createDetourModel needs at least one candidate model, e.g. candidates: [openai("gpt-5")].');
  }
  const named = new Map<string, { id: string; instance: ProviderInstance }[]>();
  for (const [id, instance] of Object.entries(namedProfiles)) {
    if (typeof instance !== "function") {
      throw new AiSdkCandidatesError(`profiles[${JSON.stringify(id)}] must be a provider instance such as createOpenAI({ apiKey }).`);
    }
    const provider = profileProvider(id);
    named.set(provider, [...(named.get(provider) ?? []), { id, instance }]);
  }

  const groups = new Map<string, { provider: string; model: string; instances: Map<string, LanguageModelV3> }>();
  inputs.forEach((input, index) => {
    const entry = isLanguageModel(input) ? { model: input } : input;
    if (!entry || !isLanguageModel(entry.model)) {
      throw new AiSdkCandidatesError(`candidates[${index}] is not an AI SDK language model (e.g. openai("gpt-5")).`);
    }
    requireV3(entry.model, `candidates[${index}]`);
    const provider = providerIdOf(entry.model);
    const ref = `${provider}/${entry.model.modelId}`;
    const group = groups.get(ref) ?? { provider, model: entry.model.modelId, instances: new Map() };
    groups.set(ref, group);
    if (named.has(provider)) {
      if (entry.profile !== undefined) {
        throw new AiSdkCandidatesError(
          `candidates[${index}] names the profile ${JSON.stringify(entry.profile)}, but ${provider}'s profiles come from ` +
            "the profiles option; name it there.",
        );
      }
      return;
    }
    const profileId = entry.profile ?? `${provider}:${group.instances.size + 1}`;
    if (profileProvider(profileId) !== provider) {
      throw new AiSdkCandidatesError(`candidates[${index}]: the profile ${JSON.stringify(profileId)} does not belong to ${provider}.`);
    }
    if (group.instances.has(profileId)) {
      throw new AiSdkCandidatesError(`candidates[${index}] repeats the profile ${JSON.stringify(profileId)} for ${ref}.`);
    }
    group.instances.set(profileId, entry.model);
  });

  const profilesByProvider = new Map<string, string[]>();
  for (const group of groups.values()) {
    const ids = named.has(group.provider) ? named.get(group.provider)!.map(({ id }) => id) : [...group.instances.keys()];
    const known = profilesByProvider.get(group.provider) ?? [];
    profilesByProvider.set(group.provider, [...known, ...ids.filter((id) => !known.includes(id))]);
  }

  const candidates = [...groups.entries()].map(([ref, group]): ResolvedCandidate => {
    const byProfile = new Map<string, LanguageModelV3>();
    const namedHere = named.get(group.provider);
    if (namedHere) {
      for (const { id, instance } of namedHere) {
        const model = instance(group.model);
        requireV3(model, `profiles[${JSON.stringify(id)}]`);
        byProfile.set(id, model);
      }
    } else {
      for (const id of profilesByProvider.get(group.provider) ?? []) {
        const model = group.instances.get(id);
        if (!model) {
          throw new AiSdkCandidatesError(
            `${ref} has no model for the profile ${id}, which other ${group.provider} candidates use: add that key's ` +
              `instance of ${group.model} to candidates, or pass the provider instances as profiles ` +
              `({ "${id}": createProvider({ apiKey }) }).`,
          );
        }
        byProfile.set(id, model);
      }
    }
    return { provider: group.provider, model: group.model, ref, byProfile };
  });
  return { candidates, profilesByProvider };
}
