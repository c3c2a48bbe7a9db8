/**
 * R-EC-7: a caller's own abort is not a provider failure. Callers handle aborts before classifying; when
 * one reaches the classifier anyway it is `unclassified`, and the runner never records it.
 */
export const CALLER_ABORT_NAMES: readonly RegExp[] = [/^AbortError$/i, /^ABORT_ERR$/i];
