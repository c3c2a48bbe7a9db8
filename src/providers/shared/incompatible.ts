/**
 * R-GW-6: a request field the candidate's wire format cannot express, found before any upstream call.
 * Classified as `incompatible`: the candidate is skipped, nothing is recorded on the profile, and the
 * chain moves to the next model; the message names the field.
 */
import { FailoverError } from "../../core/errors.js";
import type { WireEncoding } from "../../wire/shared/encoding.js";

export class IncompatibleRequestError extends FailoverError {
  readonly field: string;

  constructor(provider: string, model: string, field: string, problem: string) {
    super(`${provider}/${model} cannot take this request: ${problem} Remove "${field}" or route to a model whose API supports it.`, {
      reason: "incompatible",
      provider,
      model,
    });
    this.name = "IncompatibleRequestError";
    this.field = field;
  }
}

/** The encoded body, or the typed failure for the field the wire format cannot carry. */
export function encodedOrThrow<Body>(
  encoding: WireEncoding<Body>,
  provider: string,
  model: string,
): { body: Body; dropped: readonly string[] } {
  if (!encoding.ok) throw new IncompatibleRequestError(provider, model, encoding.field, encoding.problem);
  return { body: encoding.body, dropped: encoding.dropped };
}
