/** What a canonical `error` stream event says, reduced to fields both dialects can show. */

export interface StreamErrorDescription {
  message: string;
  status?: number;
  code?: string;
}

function field(value: unknown, name: string): unknown {
  return typeof value === "object" && value !== null ? (value as Record<string, unknown>)[name] : undefined;
}

/**
 * Reads `message`, `status` and `code` from an Error, an `UpstreamFailure` (its `failure` object) or a
 * plain object. Callers pass errors that are already secret-free; nothing here reads credentials.
 */
export function describeStreamError(error: unknown): StreamErrorDescription {
  const failure = field(error, "failure");
  const source = typeof failure === "object" && failure !== null ? failure : error;
  const message = field(error, "message") ?? field(source, "message");
  const status = field(source, "status") ?? field(error, "status");
  const code = field(source, "code") ?? field(error, "code");
  return {
    message: typeof message === "string" && message !== "" ? message : typeof error === "string" ? error : "The upstream stream failed.",
    ...(typeof status === "number" ? { status } : {}),
    ...(typeof code === "string" ? { code } : {}),
  };
}
