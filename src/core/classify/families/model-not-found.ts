/** model_not_found (R-EC-5): the model id is unknown, gone, retired or deactivated for this provider. */
import type { MessageRule } from "../rule-types.js";

const row = (id: string, pattern: RegExp): MessageRule => ({ id: `model_not_found/${id}`, reason: "model_not_found", pattern });

export const MODEL_NOT_FOUND_RULES: readonly MessageRule[] = [
  row("model-not-found-code", /\bmodel[ _]not[ _]found\b/i),
  row("unknown-model", /\bunknown[ _]model\b|\binvalid[ _]model\b|\bno such model\b/i),
  // OpenAI/xAI/Cerebras "… does not exist or you do not have access to it", Qwen/DeepSeek "Model Not Exist".
  row(
    "model-does-not-exist",
    /\bmodels?\b[^\n]{0,120}?\b(?:does not exist|do not exist|is not found|not found)\b|\bmodel[ _]not[ _]exists?\b/i,
  ),
  row("no-endpoints-found", /\bno endpoints found for\b/i),
  row(
    "model-retired",
    /\bmodels?\b[^\n]{0,120}?\b(?:deprecated|retired|decommissioned|deactivated|discontinued|no longer (?:available|supported|served))\b|\bmodel\b[^\n]{0,60}?\b(?:reached (?:the )?end of (?:its )?life|end-of-life)\b/i,
  ),
  // Groq `model_decommissioned`, `model_is_deactivated`, `model_deactivated`.
  row("model-retired-code", /\bmodel_(?:is_)?(?:decommissioned|deactivated|deprecated|retired)\b/i),
  row("not-a-valid-model-id", /\bis not a valid model(?: id)?\b/i),
  row("bedrock-model-identifier", /\bcould not resolve the foundation model\b|\bmodel identifier is invalid\b/i),
  // Azure `DeploymentNotFound`; Together "Unable to access model …".
  row(
    "deployment-not-found",
    /\bdeployment ?not ?found\b|\bdeployment for this resource does not exist\b|\bunable to access (?:the )?model\b/i,
  ),
];
