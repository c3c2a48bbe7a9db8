/** `detour-llm/ai-sdk`: Detour's failover as a Vercel AI SDK language model (SPEC R-LB-1). */
export { createDetourModel, continuationPrompt } from "./detour-model.js";
export type { CreateDetourModelOptions, DetourLanguageModel, DetourRunMetadata } from "./detour-model.js";
export { AiSdkCandidatesError, AI_SDK_ERROR_CODES, planCandidates, providerIdOf } from "./candidates.js";
export type { CandidatePlan, DetourCandidateInput, ProviderInstance, ResolvedCandidate } from "./candidates.js";
export { toUpstreamFailure } from "./ai-sdk-errors.js";
