/**
 * Binds the OpenAI Responses dialect (`wire/openai-responses`) to the gateway's dialect interface. Errors are
 * OpenAI's error bodies, as the Responses API answers them; the SDK reads them the same way.
 */
import {
  createResponsesStreamEncoder,
  openAIResponsesWire,
  renderResponsesResponse,
  responsesSseEvent,
} from "../../wire/openai-responses/index.js";
import { describeStreamError } from "../../wire/shared/stream-error.js";
import { inlineNotice, type GatewayDialect } from "../dialect.js";
import { openAIDialect } from "./openai-dialect.js";

export const openAIResponsesDialect: GatewayDialect = {
  wire: openAIResponsesWire,

  parse: (body) => openAIResponsesWire.request.decode(body),

  renderResponse(response, context) {
    const body = renderResponsesResponse(response, { createdSeconds: context.createdSeconds });
    return context.notice === undefined ? body : { ...body, detour_notice: inlineNotice(context.notice) };
  },

  createStreamEncoder(context) {
    return createResponsesStreamEncoder({
      model: context.model,
      createdSeconds: context.createdSeconds,
      describeError(error) {
        const { message, code } = describeStreamError(error);
        // After the commit the HTTP status is already 200; `response.failed` says what failed (R-ST-2).
        return { message: `The upstream stream failed after it started: ${message}`, code: code ?? "stream_interrupted" };
      },
    });
  },

  noticeFrames(notice) {
    // An event type the SDK passes through and clients that switch on `type` ignore: never assistant text.
    return [responsesSseEvent({ ...inlineNotice(notice) })];
  },

  renderError(error) {
    return openAIDialect.renderError(error);
  },

  renderValidationError(issues) {
    return openAIDialect.renderValidationError(issues);
  },
};
