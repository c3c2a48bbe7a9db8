/** Binds the Anthropic messages dialect (`wire/anthropic-messages`) to the gateway's dialect interface. */
import {
  anthropicMessagesWire,
  createAnthropicStreamEncoder,
  renderAnthropicError,
  renderAnthropicMessage,
  renderAnthropicValidationError,
} from "../../wire/anthropic-messages/index.js";
import { describeStreamError } from "../../wire/shared/stream-error.js";
import { inlineNotice, type GatewayDialect } from "../dialect.js";

export const anthropicDialect: GatewayDialect = {
  wire: anthropicMessagesWire,

  parse: (body) => anthropicMessagesWire.request.decode(body),

  renderResponse(response, context) {
    const body = renderAnthropicMessage(response);
    return context.notice === undefined ? body : { ...body, detour_notice: inlineNotice(context.notice) };
  },

  createStreamEncoder(context) {
    return createAnthropicStreamEncoder({
      model: context.model,
      describeError(error) {
        const { message } = describeStreamError(error);
        // After the commit the HTTP status is already 200; the event says what failed (R-ST-2).
        return { message: `The upstream stream failed after it started: ${message}`, type: "api_error" };
      },
    });
  },

  noticeFrames(notice) {
    // An event type clients do not know: SDKs skip it, so it never joins the assistant text.
    const event = inlineNotice(notice);
    return [`event: ${event.type}\ndata: ${JSON.stringify(event)}\n\n`];
  },

  renderError(error) {
    const body = renderAnthropicError({ message: error.message, status: error.status });
    return error.attempts ? { ...body, error: { ...body.error, attempts: error.attempts } } : body;
  },

  renderValidationError(issues) {
    return renderAnthropicValidationError(issues);
  },
};
