/**
 * The `api` values a provider can have, in one list for the two places that need them apart: config, which
 * validates a provider's `api`, and providers, which build one for it (neither may import the other).
 */

/** The wire formats a provider can speak, by their one id (the folder under wire/, the gateway dialect). */
export const WIRE_FORMAT_APIS = [
  "openai-chat",
  "openai-responses",
  "anthropic-messages",
  "google-generative-ai",
  "ollama",
  "bedrock",
] as const;

/** Clouds that speak a wire format above at their own addresses, with their own auth (R-GW-12). */
export const CLOUD_APIS = ["azure-openai", "vertex"] as const;

/** Every provider API: the wire formats, then the clouds. */
export const PROVIDER_API_LIST = [...WIRE_FORMAT_APIS, ...CLOUD_APIS] as const;
