/**
 * Provider-scoped texts (R-EC-5): generic-looking strings that only mean something coming from one
 * provider, and a guard row that keeps a generic internal text `unclassified` so no broader pattern ever
 * promotes it to a failover by itself.
 */
import type { MessageRule } from "../rule-types.js";

export const PROVIDER_SCOPED_RULES: readonly MessageRule[] = [
  {
    id: "provider_scoped/openrouter-provider-returned-error",
    reason: "timeout",
    pattern: /^(?:error:\s*)?provider returned error\.?$/i,
    bare: true,
    providers: ["openrouter"],
  },
  {
    id: "provider_scoped/openrouter-key-limit-exceeded",
    reason: "billing",
    pattern: /\bkey limit exceeded\b/i,
    providers: ["openrouter"],
  },
  {
    id: "provider_scoped/llm-request-failed-unknown",
    reason: "unclassified",
    pattern: /^(?:error:\s*)?LLM request failed with an unknown error\.?$/i,
    bare: true,
  },
];
