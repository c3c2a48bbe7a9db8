/**
 * The gateway's one line per request at `info` (method, path, status, model, attempts, duration): what an
 * operator greps for. Per-request decisions are `debug`; this line is built only when `info` is enabled.
 */
export interface AccessFacts {
  method: string;
  path: string;
  status: number;
  /** `provider/model` that answered; null when nothing did (a 4xx before any call, every candidate failed). */
  model: string | null;
  attempts: number;
  durationMs: number;
}

export function accessLogLine(facts: AccessFacts): { message: string; fields: Record<string, unknown> } {
  const durationMs = Math.round(facts.durationMs * 10) / 10;
  return {
    message: `${facts.method} ${facts.path} ${facts.status}${facts.model ? ` ${facts.model}` : ""} ${durationMs}ms`,
    fields: {
      event: "http_request",
      method: facts.method,
      path: facts.path,
      status: facts.status,
      model: facts.model,
      attempts: facts.attempts,
      durationMs,
    },
  };
}
