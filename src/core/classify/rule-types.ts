/**
 * Shapes of the classification tables (SPEC R-EC-1: rules are data). The engine walks these tables;
 * nothing else in the classifier branches on reason strings.
 */
import type { FailoverReason } from "../reasons.js";

/** Single statuses and inclusive ranges, e.g. `[408, 499, [500, 599]]`. */
export type StatusSet = readonly (number | readonly [from: number, to: number])[];

/** One message pattern of a family (R-EC-5). */
export interface MessageRule {
  /** Stable id, `<family>/<what it recognises>`; test rows and decision logs name it. */
  readonly id: string;
  readonly reason: FailoverReason;
  /**
   * Tested against the haystack (message, parsed error-body fields, `type=`/`code=`/`status=` lines).
   * Never give a rule the `g` or `y` flag: `test()` would then remember state between calls.
   */
  readonly pattern: RegExp;
  /** Test `pattern` against the bare message only (trimmed; the inner JSON message when there is one). */
  readonly bare?: true;
  /** A second pattern the haystack must also contain. */
  readonly requires?: RegExp;
  /** A guard: the rule does not apply when the haystack contains this. */
  readonly unless?: RegExp;
  /** Provider-scoped rules apply only to these provider ids (lower case). */
  readonly providers?: readonly string[];
  /** The rule applies only with one of these HTTP statuses. */
  readonly statuses?: StatusSet;
  /** The rule does not apply with one of these HTTP statuses (a generic text that a 400 body must not turn transient). */
  readonly unlessStatuses?: StatusSet;
  /** The rule applies only when the raw text is a full HTML page. */
  readonly htmlPage?: true;
}

/** One code pattern of R-EC-4, tested against every code candidate (code, type, body code/status). */
export interface CodeRule {
  readonly id: string;
  readonly reason: FailoverReason;
  /** Anchored and case-insensitive; never `g`/`y`. */
  readonly pattern: RegExp;
}

/** What a status rule additionally requires of the failure. */
export type StatusCondition =
  /** A code or message rule of this reason matches (respecting provider scope). */
  | { readonly signals: FailoverReason }
  /** One of these patterns matches the haystack. */
  | { readonly textMatches: readonly RegExp[] }
  /** The body is empty (or only an SDK's "status code (no body)" line). */
  | { readonly emptyBody: true };

/** What a status rule decides. */
export type StatusOutcome =
  | { readonly reason: FailoverReason }
  /** Use the code and message families; when none matches, this reason. */
  | { readonly messageClassOr: FailoverReason };

/** One row of R-EC-3. The first row whose statuses and condition match decides. */
export interface StatusRule {
  readonly id: string;
  readonly statuses: StatusSet;
  readonly when?: StatusCondition;
  /** The row does not apply when this holds (e.g. a 429 billing row yields to a usage-window text). */
  readonly unless?: StatusCondition;
  readonly then: StatusOutcome;
}

export function statusIn(set: StatusSet, status: number | undefined): boolean {
  if (status === undefined) return false;
  return set.some((entry) => (typeof entry === "number" ? entry === status : status >= entry[0] && status <= entry[1]));
}
