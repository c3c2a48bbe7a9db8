/**
 * Error bodies in the Anthropic dialect (R-GW-4): `{"type":"error","error":{"type","message"}}` for
 * HTTP answers and `event: error` in streams after commit (R-ST-2).
 */
import { describeDialectIssues, type DialectIssue } from "../shared/validation-issues.js";

export interface AnthropicErrorBody {
  type: "error";
  error: { type: string; message: string };
}

/** Anthropic's documented error types per status; others fall back by class (4xx / 5xx). */
export const ANTHROPIC_ERROR_TYPE_BY_STATUS: Readonly<Record<number, string>> = {
  400: "invalid_request_error",
  401: "authentication_error",
  402: "billing_error",
  403: "permission_error",
  404: "not_found_error",
  413: "request_too_large",
  429: "rate_limit_error",
  500: "api_error",
  503: "overloaded_error",
  504: "timeout_error",
  529: "overloaded_error",
};

export function anthropicErrorTypeForStatus(status: number): string {
  return ANTHROPIC_ERROR_TYPE_BY_STATUS[status] ?? (status >= 500 ? "api_error" : "invalid_request_error");
}

export interface AnthropicErrorInput {
  message: string;
  /** Used to pick `type` when none is given. */
  status?: number;
  type?: string;
}

export function renderAnthropicError(input: AnthropicErrorInput): AnthropicErrorBody {
  return {
    type: "error",
    error: { type: input.type ?? anthropicErrorTypeForStatus(input.status ?? 500), message: input.message },
  };
}

export function renderAnthropicValidationError(issues: readonly DialectIssue[]): AnthropicErrorBody {
  return renderAnthropicError({ type: "invalid_request_error", message: describeDialectIssues(issues) });
}

export function anthropicStreamErrorFrame(input: AnthropicErrorInput): string {
  return `event: error\ndata: ${JSON.stringify(renderAnthropicError(input))}\n\n`;
}
