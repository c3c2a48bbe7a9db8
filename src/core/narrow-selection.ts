/**
 * A call that only some models can take at all (count_tokens: only Anthropic Messages providers count
 * tokens) runs on the selection's chain without the others. They are left out before the run rather than
 * skipped during it, so passing over them is no fallback: the first model that can take the call is the one
 * the run was asked for — no "Model Fallback" notice, nothing counted as a fallback.
 */
import { formatModelRef } from "./candidate-chain.js";
import { FailoverError } from "./errors.js";
import type { Selection } from "./selection-source.js";
import type { ModelRef } from "./types.js";

export function narrowSelection(selection: Selection, accepts: (candidate: ModelRef) => boolean): Selection {
  const chain = selection.chain.filter((candidate) => accepts(candidate));
  const requested = chain[0];
  if (requested === undefined) {
    throw new FailoverError(`No model of the chain (${selection.chain.map(formatModelRef).join(", ")}) can take this kind of call.`, {
      reason: "incompatible",
    });
  }
  return { ...selection, requested, chain };
}
