/**
 * What the chat route needs from a client dialect (SPEC R-GW-2, R-GW-4): parse a body into the canonical
 * request, render a response, encode stream events as SSE frames, render errors, and carry a notice beside
 * the assistant text (R-NT-2). The wire details live in `wire/<format>/`; the adapters in `dialect-adapters/` bind them
 * to this one interface so the route has no dialect branches.
 */
import type { CanonicalResponse } from "../ports/canonical.js";
import type { CanonicalStreamEncoder } from "../wire/shared/stream-encoder.js";
import type { DialectIssue } from "../wire/shared/validation-issues.js";
import type { ClientRequestDecode, DecodedClientRequest, LaneWireFormat } from "../wire/wire-format.js";
import type { GatewayError } from "./http-errors.js";

/** A client's chat request decoded by its wire format (the `model` as sent, routing's fields beside it). */
export type ParsedChatRequest = DecodedClientRequest;

export type DialectParse = ClientRequestDecode;

export type StreamEncoder = CanonicalStreamEncoder;

export interface StreamContext {
  /** `provider/model` that answers (R-ST-3). */
  model: string;
  createdSeconds: number;
  includeUsage: boolean;
}

export interface GatewayDialect {
  /** The client's wire format: its id names the dialect; its candidates get the client's bytes (R-GW-6). */
  readonly wire: LaneWireFormat;
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
