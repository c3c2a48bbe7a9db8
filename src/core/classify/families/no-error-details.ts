/**
 * no_error_details (R-EC-2): the runtime's exact text for a provider failure that carried no details.
 * Kept apart from `unclassified` so the fallback state says precisely what happened.
 */
import type { MessageRule } from "../rule-types.js";

export const NO_ERROR_DETAILS_RULES: readonly MessageRule[] = [
  {
    id: "no_error_details/exact-text",
    reason: "no_error_details",
    pattern: /^Unknown error \(no error details in response\)$/,
    bare: true,
  },
];
