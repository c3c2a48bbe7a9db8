/**
 * Anthropic Messages stream events → the `message` object the same request would have got without `stream`
 * (SPEC R-ST-6): the same-wire lane streams a non-streamed request upstream to watch for silence and hands
 * the client this instead. `message_start` gives the message (id, model, role, usage with its cache fields);
 * each content block is started whole and grown by its deltas (text, tool input JSON, thinking and its
 * signature, citations); `message_delta` sets the stop reason and sequence and updates the usage. Works on
 * parsed JSON, not on the wire schema, so block types and fields the schema does not know survive.
 */

type Json = Record<string, unknown>;

interface BlockParts {
  block: Json;
  /** Tool input as streamed `partial_json`, parsed when the block is done. */
  inputJson: string;
}

function isObject(value: unknown): value is Json {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

function appendText(block: Json, key: string, text: unknown): void {
  if (typeof text !== "string") return;
  block[key] = (typeof block[key] === "string" ? (block[key] as string) : "") + text;
}

/** A tool's input: the streamed JSON when it parses, else the input the block started with. */
function finalInput(parts: BlockParts): unknown {
  if (parts.inputJson.trim() === "") return parts.block.input ?? {};
  try {
    return JSON.parse(parts.inputJson);
  } catch {
    // Not valid JSON (a cut the scanner did not see): keep the raw text so nothing of it is lost.
    return parts.inputJson;
  }
}

export class AnthropicMessageAssembler {
  #message: Json | undefined;
  readonly #blocks = new Map<number, BlockParts>();
  #stopped = false;

  accept(event: unknown): void {
    if (!isObject(event)) return;
    switch (event.type) {
      case "message_start":
        if (isObject(event.message))
          this.#message ??= { ...event.message, usage: isObject(event.message.usage) ? { ...event.message.usage } : event.message.usage };
        return;
      case "content_block_start":
        if (typeof event.index === "number" && isObject(event.content_block)) {
          this.#blocks.set(event.index, { block: structuredClone(event.content_block), inputJson: "" });
        }
        return;
      case "content_block_delta":
        if (typeof event.index === "number" && isObject(event.delta)) this.#acceptDelta(event.index, event.delta);
        return;
      case "message_delta":
        this.#acceptMessageDelta(event);
        return;
      case "message_stop":
        this.#stopped = true;
        return;
      default:
        // ping, content_block_stop and unknown lifecycle events carry nothing of the answer.
        return;
    }
  }

  #acceptDelta(index: number, delta: Json): void {
    let parts = this.#blocks.get(index);
    if (!parts) {
      // A delta without its start (never seen from Anthropic): a block of the delta's kind.
      parts = {
        block: { type: delta.type === "input_json_delta" ? "tool_use" : delta.type === "thinking_delta" ? "thinking" : "text" },
        inputJson: "",
      };
      this.#blocks.set(index, parts);
    }
    const block = parts.block;
    switch (delta.type) {
      case "text_delta":
        appendText(block, "text", delta.text);
        return;
      case "input_json_delta":
        if (typeof delta.partial_json === "string") parts.inputJson += delta.partial_json;
        return;
      case "thinking_delta":
        appendText(block, "thinking", delta.thinking);
        return;
      case "signature_delta":
        appendText(block, "signature", delta.signature);
        return;
      case "citations_delta":
        block.citations = [...(Array.isArray(block.citations) ? block.citations : []), delta.citation];
        return;
      default:
        // An unknown delta kind: its fields grow the block the same way text does.
        for (const [key, value] of Object.entries(delta)) if (key !== "type") appendText(block, key, value);
    }
  }

  #acceptMessageDelta(event: Json): void {
    const message = (this.#message ??= { type: "message", role: "assistant", content: [] });
    if (isObject(event.delta)) for (const [key, value] of Object.entries(event.delta)) message[key] = value;
    if (isObject(event.usage)) {
      // message_delta usage is cumulative: its counts replace message_start's, the fields it lacks stay.
      message.usage = { ...(isObject(message.usage) ? message.usage : {}), ...event.usage };
    }
  }

  /** True once the stop reason (or `message_stop`) arrived. */
  get finished(): boolean {
    return this.#stopped || (this.#message !== undefined && this.#message.stop_reason !== null && this.#message.stop_reason !== undefined);
  }

  message(): Json {
    const message: Json = { ...(this.#message ?? { type: "message", role: "assistant" }) };
    message.content = [...this.#blocks.entries()]
      .sort(([a], [b]) => a - b)
      .map(([, parts]) => {
        const block = parts.block;
        return block.type === "tool_use" || block.type === "server_tool_use" || block.type === "mcp_tool_use"
          ? { ...block, input: finalInput(parts) }
          : block;
      });
    message.stop_reason ??= null;
    message.stop_sequence ??= null;
    return message;
  }
}
