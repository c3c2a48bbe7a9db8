/**
 * What the chat route needs from a client dialect (SPEC R-GW-2, R-GW-4): parse a body into the canonical
 * request, render a response, encode stream events as SSE frames, render errors, and carry a notice beside
 * the assistant text (R-NT-2). The wire details live in `wire/<format>/`; the adapters in `dialect-adapters/` bind them
 * to this one interface so the route has no dialect branches.
 */
import type { CanonicalRequest, CanonicalResponse } from "../ports/canonical.js";
import type { PassThroughApi } from "../engine/run-pass-through.js";
import type { UnsupportedField } from "../wire/shared/encoding.js";
import type { CanonicalStreamEncoder } from "../wire/shared/stream-encoder.js";
import type { DialectIssue } from "../wire/shared/validation-issues.js";
import type { GatewayError } from "./http-errors.js";

export interface ParsedChatRequest {
  request: CanonicalRequest;
  /** The `model` field as sent (alias, `provider/model`, `detour` or an agent id, R-GW-3). */
  model: string;
  stream: boolean;
  /** OpenAI `stream_options.include_usage`. */
  includeUsage: boolean;
  /** Responses: the field that ties the request to state one provider holds (`previous_response_id`, …). */
  statefulField?: string;
  /** Responses: the first input the canonical model cannot hold; only a same-wire candidate can take it. */
  untranslatable?: UnsupportedField;
}

export type DialectParse = { ok: true; value: ParsedChatRequest } | { ok: false; issues: DialectIssue[] };

export type StreamEncoder = CanonicalStreamEncoder;

export interface StreamContext {
  /** `provider/model` that answers (R-ST-3). */
  model: string;
  createdSeconds: number;
  includeUsage: boolean;
}

export interface GatewayDialect {
  readonly name: "openai" | "openai-responses" | "anthropic";
  /** The provider API whose candidates the same-wire lane serves with the client's bytes (R-GW-6). */
  readonly laneApi: PassThroughApi;
  parse(body: unknown): DialectParse;
  /** A complete answer; `notice` is set only with `gateway.notices: "inline"`. */
  renderResponse(response: CanonicalResponse, context: { createdSeconds: number; notice?: string }): unknown;
  createStreamEncoder(context: StreamContext): StreamEncoder;
  /** R-NT-2 inline: frames sent before the answer that are not part of the assistant text. */
  noticeFrames(notice: string, context: StreamContext): string[];
  renderError(error: GatewayError): unknown;
  renderValidationError(issues: readonly DialectIssue[]): unknown;
}

/** The notice as it rides inside a JSON body with `gateway.notices: "inline"`. */
export interface InlineNotice {
  type: "detour_notice";
  text: string;
}

export function inlineNotice(text: string): InlineNotice {
  return { type: "detour_notice", text };
}
