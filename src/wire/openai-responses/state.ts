/**
 * Server-held state in a Responses request: a stored response to continue, a conversation, a stored prompt,
 * or references to stored items. Detour is stateless (`store: false` semantics); such a request can only be
 * answered by the provider that holds the state, so the gateway pins it there.
 */
import type { ResponsesRequest } from "./schemas.js";

const STATEFUL_FIELDS = ["previous_response_id", "conversation", "prompt"] as const;

/** The client field that makes the request depend on stored state, or undefined for a self-contained one. */
export function statefulFieldOf(body: ResponsesRequest): string | undefined {
  for (const field of STATEFUL_FIELDS) {
    const value = (body as Record<string, unknown>)[field];
    if (value !== undefined && value !== null && value !== "") return field;
  }
  if (Array.isArray(body.input) && body.input.some((item) => item.type === "item_reference")) return "item_reference";
  return undefined;
}
