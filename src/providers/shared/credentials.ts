/** Reads the secret out of any stored credential type (R-AP-1) without caring which type it is. */
import type { Credential } from "../../core/types.js";

export function credentialSecret(credential: Credential | undefined): string | undefined {
  if (!credential) return undefined;
  switch (credential.type) {
    case "api_key":
      return credential.key;
    case "oauth":
      return credential.access;
    case "token":
      return credential.token;
  }
}

/** `Authorization: Bearer …` when there is a secret; keyless providers send nothing. */
export function bearerHeaders(credential: Credential | undefined): Record<string, string> {
  const secret = credentialSecret(credential);
  return secret ? { authorization: `Bearer ${secret}` } : {};
}
