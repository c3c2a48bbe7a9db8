/** model_not_found (R-EC-5): the model id is unknown, gone or retired for this provider. */
import type { MessageRule } from "../rule-types.js";

const row = (id: string, pattern: RegExp): MessageRule => ({ id: `model_not_found/${id}`, reason: "model_not_found", pattern });

export const MODEL_NOT_FOUND_RULES: readonly MessageRule[] = [
  row("model-not-found-code", /\bmodel[ _]not[ _]found\b/i),
  row("unknown-model", /\bunknown model\b|\binvalid model\b/i),
  row("model-does-not-exist", /\bmodels?\b[^\n]{0,120}?\b(?:does not exist|do not exist|is not found|not found)\b/i),
  row("no-endpoints-found", /\bno endpoints found for\b/i),
  row("model-retired", /\bmodels?\b[^\n]{0,120}?\b(?:deprecated|retired|decommissioned|no longer (?:available|supported))\b/i),
  row("not-a-valid-model-id", /\bis not a valid model(?: id)?\b/i),
  row("bedrock-model-identifier", /\bcould not resolve the foundation model\b|\bmodel identifier is invalid\b/i),
];
