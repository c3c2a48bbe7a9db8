/** Binds the OpenAI chat-completions dialect (`wire/openai-chat`) to the gateway's dialect interface. */
import {
  createOpenAIStreamEncoder,
  openAIChatWire,
  renderOpenAIChatCompletion,
  renderOpenAIError,
  renderOpenAIValidationError,
} from "../../wire/openai-chat/index.js";
import { describeStreamError } from "../../wire/shared/stream-error.js";
import { inlineNotice, type GatewayDialect } from "../dialect.js";
import { ERROR_CODES } from "../../core/errors.js";

export const openAIDialect: GatewayDialect = {
  wire: openAIChatWire,

  parse: (body) => openAIChatWire.request.decode(body),

  renderResponse(response, context) {
    const body = renderOpenAIChatCompletion(response, { createdSeconds: context.createdSeconds });
    return context.notice === undefined ? body : { ...body, detour_notice: inlineNotice(context.notice) };
  },

  createStreamEncoder(context) {
    return createOpenAIStreamEncoder({
      includeUsage: context.includeUsage,
      model: context.model,
      createdSeconds: context.createdSeconds,
      describeError(error) {
        const { message, code } = describeStreamError(error);
        // After the commit the HTTP status is already 200; the chunk says what failed (R-ST-2).
        return { message: `The upstream stream failed after it started: ${message}`, status: 502, code: code ?? "stream_interrupted" };
      },
    });
  },

  noticeFrames(notice, context) {
    // A chunk with no choices (like the usage chunk): clients skip it, so it never joins the assistant text.
    const chunk = {
      id: "detour-notice",
      object: "chat.completion.chunk",
      created: context.createdSeconds,
      model: context.model,
      choices: [],
      detour_notice: inlineNotice(notice),
    };
    return [`data: ${JSON.stringify(chunk)}\n\n`];
  },

  renderError(error) {
    const body = renderOpenAIError({
      message: error.message,
      status: error.status,
      code: error.code ?? null,
      param: error.param ?? null,
    });
    return error.attempts ? { error: { ...body.error, attempts: error.attempts } } : body;
  },

  renderValidationError(issues) {
    // docs/errors.md: a schema violation is DETOUR_BAD_REQUEST, like every other 400 the gateway decides itself.
    const body = renderOpenAIValidationError(issues);
    return { error: { ...body.error, code: ERROR_CODES.badRequest } };
  },
};
