/**
 * Azure OpenAI (`api: "azure-openai"`): the OpenAI Chat Completions or Responses wire at a resource's
 * deployment URLs, every call with `api-version`; authenticated by the profile's key in `api-key`, or by a
 * Microsoft Entra ID token (`azure.entra`) fetched through @azure/identity and kept until shortly before it
 * expires. The body is OpenAI's, so an OpenAI client's bytes go to Azure unchanged but `model`.
 */
import type { Credential } from "../../core/types.js";
import { UpstreamFailure } from "../../ports/provider.js";
import { WIRE_FORMATS } from "../../wire/formats.js";
import { AccessTokenCache } from "../cloud/access-token-cache.js";
import { fetchEntraToken, loadEntraCredential, type EntraCredential } from "../cloud/azure-entra-token.js";
import { azureOpenAiAuthHeaders, azureOpenAiUrl, type AzureOpenAiOperation } from "../cloud/azure-openai-request.js";
import { credentialSecret } from "../shared/credentials.js";
import { acceptHeader, type EndpointSigner, type ProviderEndpoint, type ProviderQuirks } from "../shared/provider-quirks.js";
import type { AzureOpenAiSettings, ProviderSettings } from "../shared/provider-settings.js";

/** The deployment a model id is served by: the configured mapping, else the id itself. */
export function azureDeploymentOf(settings: AzureOpenAiSettings | undefined, model: string): string {
  const deployments = settings?.deployments;
  return deployments && Object.hasOwn(deployments, model) ? (deployments[model] as string) : model;
}

/** The URL of one operation (chat, Responses, embeddings) for a model on this provider. */
export function azureOpenAiOperationUrl(settings: ProviderSettings, operation: AzureOpenAiOperation, model: string): string {
  const apiVersion = settings.azure?.apiVersion ?? (operation === "responses" ? AZURE_RESPONSES_API_VERSION : undefined);
  return azureOpenAiUrl({
    endpoint: settings.baseUrl,
    operation,
    deployment: azureDeploymentOf(settings.azure, model),
    ...(apiVersion ? { apiVersion } : {}),
  });
}

/** The generally-available data-plane version has no Responses API; this preview version does. */
export const AZURE_RESPONSES_API_VERSION = "2025-04-01-preview";

/**
 * The Responses API names the deployment in the body's `model`: a model mapped to another deployment name
 * has it written there. Other fields keep their bytes' meaning (the JSON is only re-serialized).
 */
function deploymentInBody(settings: AzureOpenAiSettings | undefined): EndpointSigner | undefined {
  const deployments = settings?.deployments;
  if (settings?.wire !== "openai-responses" || !deployments || Object.keys(deployments).length === 0) return undefined;
  return async (request) => {
    const body: unknown = JSON.parse(request.body.toString("utf8"));
    if (typeof body !== "object" || body === null || typeof (body as { model?: unknown }).model !== "string") return request;
    const model = (body as { model: string }).model;
    const deployment = azureDeploymentOf(settings, model);
    if (deployment === model) return request;
    return { ...request, body: Buffer.from(JSON.stringify({ ...body, model: deployment })) };
  };
}

/** Runs each present signer in turn. */
function chained(signers: readonly (EndpointSigner | undefined)[]): EndpointSigner | undefined {
  const present = signers.filter((signer): signer is EndpointSigner => signer !== undefined);
  if (present.length === 0) return undefined;
  return async (request, signal, credential) => {
    let current = request;
    for (const sign of present) current = await sign(current, signal, credential);
    return current;
  };
}

function apiKeyHeaders(credential: Credential | undefined): Record<string, string> {
  const secret = credentialSecret(credential);
  return secret ? azureOpenAiAuthHeaders({ kind: "api-key", apiKey: secret }) : {};
}

/** Adds an Entra token to each call; the credential is loaded on the first call, never before. */
function entraSigner(providerId: string, entra: NonNullable<AzureOpenAiSettings["entra"]>): EndpointSigner {
  let credential: Promise<EntraCredential> | undefined;
  const tokens = new AccessTokenCache({
    fetch: async () => fetchEntraToken(await (credential ??= loadEntraCredential(entra)), entra),
  });
  return async (request, signal) => {
    let token: string;
    try {
      token = await tokens.token(signal);
    } catch (error) {
      if (signal.aborted) throw error;
      const problem = error instanceof Error ? error.message : String(error);
      // A 401 to the classifier: this provider's auth failed, so the chain moves on (R-EC-3).
      throw new UpstreamFailure(
        `${providerId}: no Microsoft Entra ID token for Azure OpenAI (${problem}). Check models.providers.${providerId}.azure.entra ` +
          `or sign in (az login, managed identity).`,
        { provider: providerId, status: 401 },
        error,
      );
    }
    return {
      ...request,
      headers: { ...request.headers, ...azureOpenAiAuthHeaders({ kind: "entra", accessToken: token }) },
      tokenRefused: () => tokens.invalidate(token),
    };
  };
}

export const azureOpenAiQuirks: ProviderQuirks = {
  api: "azure-openai",
  wireOf: (settings) => WIRE_FORMATS[settings.azure?.wire ?? "openai-chat"],
  endpoint(settings): ProviderEndpoint {
    const operation: AzureOpenAiOperation = settings.azure?.wire === "openai-responses" ? "responses" : "chat/completions";
    const entra = settings.azure?.entra;
    const sign = chained([deploymentInBody(settings.azure), entra ? entraSigner(settings.id, entra) : undefined]);
    // With Entra configured the token is the auth; a profile key is not sent beside it.
    return {
      url: (model) => azureOpenAiOperationUrl(settings, operation, model),
      headers: (credential, stream) => ({ ...(entra ? {} : apiKeyHeaders(credential)), ...acceptHeader(stream) }),
      ...(sign ? { sign } : {}),
    };
  },
};
