/** The cloud part of a provider's settings (Azure OpenAI, Vertex AI, Bedrock), from its resolved config entry. */
import type { ResolvedProviderSettings } from "../config/index.js";
import type { ProviderSettings } from "../providers/shared/provider-settings.js";

export function cloudSettingsOf(resolved: ResolvedProviderSettings): Pick<ProviderSettings, "azure" | "vertex" | "region" | "awsProfile"> {
  const cloud: Pick<ProviderSettings, "azure" | "vertex" | "region" | "awsProfile"> = {};
  if (resolved.region) cloud.region = resolved.region;
  if (resolved.awsProfile) cloud.awsProfile = resolved.awsProfile;
  if (resolved.api === "azure-openai") {
    // Model declarations that name their deployment: `{ id: "gpt-4o", deployment: "gpt4o-eastus" }`.
    const deployments = Object.fromEntries(resolved.models.flatMap((model) => (model.deployment ? [[model.id, model.deployment]] : [])));
    const azure = resolved.azure;
    cloud.azure = {
      ...(azure?.apiVersion ? { apiVersion: azure.apiVersion } : {}),
      ...(azure?.wire ? { wire: azure.wire } : {}),
      ...(azure?.entra ? { entra: { ...azure.entra } } : {}),
      deployments,
    };
  }
  if (resolved.api === "vertex" && resolved.vertex) cloud.vertex = { ...resolved.vertex };
  return cloud;
}
