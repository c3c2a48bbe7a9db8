/**
 * R-TT-2: failures that mean the provider cannot be reached at all — its name does not resolve, nothing
 * listens, or TLS cannot be set up — as opposed to a provider that answers slowly or with an error. Such an
 * attempt fails at once, and the runner never waits for a cooldown of that provider: waiting helps a
 * provider that answers, not a host that does not exist. One row per transport code.
 */
export type UnreachableKind = "dns" | "refused" | "tls";

interface UnreachableRow {
  readonly pattern: RegExp;
  readonly kind: UnreachableKind;
}

const UNREACHABLE_CODES: readonly UnreachableRow[] = [
  { pattern: /^ENOTFOUND$/, kind: "dns" },
  { pattern: /^EAI_AGAIN$/, kind: "dns" },
  { pattern: /^EAI_NONAME$/, kind: "dns" },
  { pattern: /^EAI_NODATA$/, kind: "dns" },
  { pattern: /^ECONNREFUSED$/, kind: "refused" },
  { pattern: /^(?:CERT_[A-Z_]+|DEPTH_ZERO_SELF_SIGNED_CERT|SELF_SIGNED_CERT_IN_CHAIN)$/, kind: "tls" },
  { pattern: /^UNABLE_TO_(?:VERIFY_LEAF_SIGNATURE|GET_ISSUER_CERT(?:_LOCALLY)?)$/, kind: "tls" },
  { pattern: /^ERR_TLS_[A-Z_]+$/, kind: "tls" },
  { pattern: /^ERR_SSL_[A-Z_]+$/, kind: "tls" },
  { pattern: /^EPROTO$/, kind: "tls" },
];

/** The kind of unreachable a transport code means, or undefined for any other code (or none). */
export function unreachableKind(code: string | undefined): UnreachableKind | undefined {
  if (code === undefined) return undefined;
  for (const row of UNREACHABLE_CODES) if (row.pattern.test(code)) return row.kind;
  return undefined;
}

/** The first transport code found on an error or along its `cause` chain (undici wraps the socket's). */
export function transportCodeOf(error: unknown): string | undefined {
  let current: unknown = error;
  for (let depth = 0; depth < 5 && typeof current === "object" && current !== null; depth += 1) {
    const code = (current as { code?: unknown }).code;
    if (typeof code === "string" && unreachableKind(code) !== undefined) return code;
    current = (current as { cause?: unknown }).cause;
  }
  return undefined;
}
