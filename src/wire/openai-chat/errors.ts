/**
 * Error bodies in the OpenAI dialect (R-GW-4): `{"error":{"message","type","param","code"}}` for HTTP
 * answers and the same object as an SSE `data:` chunk after commit, never followed by `[DONE]` (R-ST-2).
 */
import { describeDialectIssues, type DialectIssue } from "../shared/validation-issues.js";

export interface OpenAIErrorBody {
  error: { message: string; type: string; param: string | null; code: string | null };
}

/** The `type` OpenAI uses for each status; statuses not listed fall back by class (4xx / 5xx). */
export const OPENAI_ERROR_TYPE_BY_STATUS: Readonly<Record<number, string>> = {
  400: "invalid_request_error",
  401: "authentication_error",
  402: "insufficient_quota",
  403: "permission_error",
  404: "not_found_error",
  408: "timeout_error",
  409: "conflict_error",
  413: "invalid_request_error",
  422: "invalid_request_error",
  429: "rate_limit_error",
  500: "server_error",
  502: "server_error",
  503: "server_error",
  504: "timeout_error",
  529: "server_error",
};

export function openAIErrorTypeForStatus(status: number): string {
  return OPENAI_ERROR_TYPE_BY_STATUS[status] ?? (status >= 500 ? "server_error" : "invalid_request_error");
}

export interface OpenAIErrorInput {
  message: string;
  /** Used to pick `type` when none is given. */
  status?: number;
  type?: string;
  code?: string | null;
  param?: string | null;
}

export function renderOpenAIError(input: OpenAIErrorInput): OpenAIErrorBody {
  return {
    error: {
      message: input.message,
      type: input.type ?? openAIErrorTypeForStatus(input.status ?? 500),
      param: input.param ?? null,
      code: input.code ?? null,
    },
  };
}

/** The 400 answer for a request that failed validation; `param` names the first bad path. */
export function renderOpenAIValidationError(issues: readonly DialectIssue[]): OpenAIErrorBody {
  return renderOpenAIError({
    message: `Invalid request: ${describeDialectIssues(issues)}`,
    type: "invalid_request_error",
    code: "invalid_request",
    param: issues[0]?.path ?? null,
  });
}

/** An in-stream error chunk. No `[DONE]` may follow it: the client must see a failed stream. */
export function openAIStreamErrorFrame(input: OpenAIErrorInput): string {
  return `data: ${JSON.stringify(renderOpenAIError(input))}\n\n`;
}
