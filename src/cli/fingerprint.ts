/**
 * A short, stable, non-reversible name for a secret, so `auth list` can show which key is stored without
 * printing it (R-OB-2): the first 8 hex digits of its SHA-256.
 */
import { createHash } from "node:crypto";
import type { Credential } from "../core/types.js";

export function secretFingerprint(secret: string): string {
  return `sha256:${createHash("sha256").update(secret).digest("hex").slice(0, 8)}`;
}

/** The secret that identifies a credential: the key, the token, or an OAuth login's refresh token. */
export function credentialFingerprint(credential: Credential | undefined): string | undefined {
  if (!credential) return undefined;
  switch (credential.type) {
    case "api_key":
      return credential.key ? secretFingerprint(credential.key) : undefined;
    case "token":
      return credential.token ? secretFingerprint(credential.token) : undefined;
    case "oauth": {
      const secret = credential.refresh ?? credential.access;
      return secret ? secretFingerprint(secret) : undefined;
    }
  }
}
