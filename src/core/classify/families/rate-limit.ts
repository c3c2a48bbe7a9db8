/**
 * rate_limit (R-EC-5): a quota window that refills by itself. Periodic subscription windows are their own
 * table (usage-window.ts, read before billing) and relayed cooldowns too (relayed-cooldown.ts). Specific
 * rows come first so every row can be traced.
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
  row(
    "concurrency-limit",
    /\bconcurrency limit\b[^\n]{0,30}?\b(?:reached|exceeded|breached|hit)\b|\bconcurrent (?:request|connection)s? limit\b/i,
  ),
  row("workers-ai-quota", /\bworkers_ai\b[^\n]{0,200}?\bquota limit exceeded\b/i),
  row("resource-exhausted", /\bresource[ _]exhausted\b/i),
  row("resource-has-been-exhausted", /\bresource has been exhausted\b/i),
  row("exceeded-current-quota", /\bexceeded your current quota\b/i),
  row("per-minute-quota", /\b(?:tokens|requests) per (?:min|minute|day)\b|\bTPM\b|\bRPM\b/i),
  row("quota-exceeded", /\bquota\b[^\n]{0,40}?\bexceeded\b/i),
  // AWS: `ServiceQuotaExceededException`; Bedrock/Azure: `Rate exceeded`, `request limit exceeded`.
  row(
    "service-quota-exceeded",
    /quotaexceeded(?:exception)?\b|\brate exceeded\b|\b(?:request|requests|token|call) limit (?:reached|exceeded|hit)\b/i,
  ),
  // Moonshot "request reached organization max concurrency: 50", "reached max request: 3"; Z.ai 1302
  // "High concurrency usage of this API, please reduce concurrency".
  row(
    "max-requests-reached",
    /\breached (?:\w+ )?max(?:imum)? (?:request|requests|concurrency|rpm|tpm|tokens?)\b|\b(?:high|reduce) concurrency\b|并发数过高/i,
  ),
  row("quota-exhausted", /\bquota[ _-]?(?:(?:has been|is|was) )?(?:exhausted|depleted|used up|reached)\b/i),
  // Chinese providers and relays (Qwen, GLM, Kimi, DeepSeek): "requests too frequent", "call frequency",
  // "frequency limit", "quota insufficient/used up", "rate limiting".
  row("cjk-rate-limit", /请求过于频繁|调用频率|频率限制|频率超限|限流|配额不足|配额已用尽|额度不足|额度已用尽|并发数?超限/),
];
