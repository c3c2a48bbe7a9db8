/** Configuration: schema, loading, environment knobs and the read-side helpers built on them. */
export { loadConfig, configFileCandidates, useCatalogueOfHome, type LoadConfigOptions, type LoadedConfig } from "./load-config.js";
export { parseConfig, type ParsedConfig } from "./parse-config.js";
export { toJsonSchema } from "./json-schema.js";
export { resolveCooldownSettings } from "./cooldown-settings.js";
export {
  readEnvKnobs,
  parseFallbackSkipTtlMs,
  parseSdkRetryMaxWaitSeconds,
  parseLogLevel,
  resolveDetourHome,
  DEFAULT_SDK_RETRY_MAX_WAIT_SECONDS,
  SKIP_TTL_MIN_MS,
  SKIP_TTL_MAX_MS,
  type EnvKnobs,
  type EnvSource,
} from "./env-knobs.js";
export {
  resolveProviderSettings,
  builtInProviderDefaults,
  BUILT_IN_PROVIDERS,
  type ResolvedProviderSettings,
  type BuiltInProviderDefaults,
  type OAuthEndpoint,
} from "./provider-defaults.js";
export {
  agentSettings,
  modelAliases,
  modelDeclaration,
  sameEmbeddingSpace,
  type AgentSettings,
  type AgentModelSelection,
  type ModelDeclaration,
} from "./agent-settings.js";
export { ConfigFileError, type ConfigFileProblem } from "./config-error.js";
export { MODEL_REF_MESSAGE } from "./model-ref-syntax.js";
export * from "./defaults.js";
export {
  DetourConfigSchema,
  type DetourConfig,
  type DetourConfigInput,
  type ProviderApi,
  type ProviderConfig,
  type ProviderModelDeclaration,
  type AgentEntryConfig,
  type CronJobConfig,
  type GatewayConfig,
  type StateConfig,
} from "./schema.js";
export {
  resolveModelName,
  requireModelName,
  knownProviderIds,
  isKnownProvider,
  unknownProviderMessage,
  configuredModelRefs,
  ModelNameError,
  type ModelNameResolution,
} from "./model-names.js";
export { missingEnvReferences, describeMissingEnvReference, type MissingEnvReference } from "./env-references.js";
