/**
 * Which rate-limit refusals are about requests at once rather than requests per window (R-PO-8): the
 * account refused one more parallel request, so waiting for a window to refill is the wrong remedy — fewer
 * requests in flight is the right one. Read only for failures already classified as `rate_limit`.
 */
const CONCURRENCY_LIMIT_PATTERNS: readonly RegExp[] = [
  /\btoo many concurrent (?:requests|connections|sessions)\b/i,
  /\bconcurrency limit\b/i,
  /\bconcurrent (?:request|connection|session)s? limit\b/i,
  /\bmax(?:imum)? concurren(?:cy|t requests)\b/i,
  /\b(?:high|reduce) concurrency\b/i,
  /并发数?(?:过高|超限)/,
];

export function isConcurrencyLimitText(text: string): boolean {
  return CONCURRENCY_LIMIT_PATTERNS.some((pattern) => pattern.test(text));
}
