/**
 * A request that depends on state one provider holds (an OpenAI Responses `previous_response_id`, a stored
 * conversation or prompt, item references) can only be answered there: every other candidate of the chain is
 * `incompatible` (skipped before any call, nothing recorded on its profiles), so the run fails over only
 * between that provider's own profiles and models.
 */
import type { AttemptContext } from "../runner/attempt.js";
import { IncompatibleRequestError } from "../providers/shared/incompatible.js";

export interface ProviderPin {
  /** The provider id that holds the state. */
  provider: string;
  /** The client field that refers to it (`previous_response_id`, …), named in the attempt text. */
  field: string;
}

export function assertPinnedProvider(pin: ProviderPin | undefined, context: AttemptContext): void {
  if (!pin || context.provider === pin.provider) return;
  throw new IncompatibleRequestError(
    context.provider,
    context.model,
    pin.field,
    `"${pin.field}" refers to state that provider ${pin.provider} holds, and only it can continue from there.`,
  );
}
