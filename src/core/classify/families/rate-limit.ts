/**
 * rate_limit (R-EC-5): a quota window that refills by itself, including periodic usage windows
 * (Codex/ChatGPT and Claude subscription limits). Specific rows come first so every row can be traced.
 */
import type { MessageRule } from "../rule-types.js";

const row = (id: string, pattern: RegExp): MessageRule => ({ id: `rate_limit/${id}`, reason: "rate_limit", pattern });

export const RATE_LIMIT_RULES: readonly MessageRule[] = [
  row("rate-limit", /\brate[ _-]?limit/i),
  row("too-many-concurrent-requests", /\btoo many concurrent requests\b/i),
  row("too-many-requests", /\btoo many requests\b/i),
  row("too-many-tokens", /\btoo many tokens\b/i),
  row("throttling-exception", /\bthrottlingexception\b/i),
  row("throttled", /\bthrottl(?:ed|ing)\b/i),
  row("concurrency-limit", /\bconcurrency limit (?:reached|exceeded)\b/i),
  row("workers-ai-quota", /\bworkers_ai\b[^\n]{0,200}?\bquota limit exceeded\b/i),
  row("resource-exhausted", /\bresource[ _]exhausted\b/i),
  row("resource-has-been-exhausted", /\bresource has been exhausted\b/i),
  row("exceeded-current-quota", /\bexceeded your current quota\b/i),
  row("per-minute-quota", /\b(?:tokens|requests) per (?:min|minute|day)\b|\bTPM\b|\bRPM\b/i),
  row("periodic-window", /\b(?:hourly|daily|weekly|monthly|5-hour|five-hour)\s+(?:usage\s+)?limit\b[^\n]{0,40}?\b(?:reached|exhausted|exceeded|hit)\b/i),
  row("hit-your-usage-limit", /\byou(?:'|’)?(?:ve| have) (?:hit|reached) your\b[^\n]{0,40}?\busage limit\b/i),
  row("usage-limit-reached", /\busage[ _]limit[ _](?:has been[ _])?reached\b/i),
  row("quota-exceeded", /\bquota\b[^\n]{0,40}?\bexceeded\b/i),
];
