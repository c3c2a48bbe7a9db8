/**
 * Microsoft Entra ID tokens for Azure OpenAI through `@azure/identity`, loaded only when a provider sets
 * `azure.entra` and first needs a token: an app registration's client secret (read from the named
 * environment variable) when tenant, client and secret are given, DefaultAzureCredential otherwise (managed
 * identity, workload identity, the Azure CLI's login, …).
 */
import type { AccessToken } from "./access-token-cache.js";

/** The scope Azure OpenAI (Cognitive Services) accepts tokens for. */
export const AZURE_COGNITIVE_SERVICES_SCOPE = "https://cognitiveservices.azure.com/.default";

export interface EntraSettings {
  tenantId?: string;
  clientId?: string;
  clientSecretEnv?: string;
  scope?: string;
}

/** What @azure/identity's credentials have in common. */
export interface EntraCredential {
  getToken(scopes: string | string[]): Promise<{ token: string; expiresOnTimestamp: number } | null>;
}

export async function loadEntraCredential(settings: EntraSettings, env: NodeJS.ProcessEnv = process.env): Promise<EntraCredential> {
  const identity = await import("@azure/identity");
  const secret = settings.clientSecretEnv === undefined ? undefined : env[settings.clientSecretEnv];
  if (settings.clientSecretEnv !== undefined && !secret) {
    throw new Error(`the environment variable ${settings.clientSecretEnv} named by azure.entra.clientSecretEnv is not set`);
  }
  if (settings.tenantId && settings.clientId && secret) {
    return new identity.ClientSecretCredential(settings.tenantId, settings.clientId, secret);
  }
  return new identity.DefaultAzureCredential({
    ...(settings.tenantId ? { tenantId: settings.tenantId } : {}),
    ...(settings.clientId ? { managedIdentityClientId: settings.clientId } : {}),
  });
}

/** One token for the settings' scope from a credential (loaded once per provider). */
export async function fetchEntraToken(credential: EntraCredential, settings: EntraSettings): Promise<AccessToken> {
  const token = await credential.getToken(settings.scope ?? AZURE_COGNITIVE_SERVICES_SCOPE);
  if (!token) throw new Error("Microsoft Entra ID gave no token for Azure OpenAI");
  return { token: token.token, expiresAt: token.expiresOnTimestamp };
}
