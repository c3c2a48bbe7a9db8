import { describe, expect, it } from "vitest";
import { ResponsesAssembler } from "./assemble-response.js";

describe("ResponsesAssembler", () => {
  const message = {
    type: "message",
    id: "msg_1",
    role: "assistant",
    status: "completed",
    content: [{ type: "output_text", text: "Hi there", annotations: [] }],
  };

  it("R-ST-6: the terminal event's response is the non-streamed answer, unknown fields kept", () => {
    const assembler = new ResponsesAssembler();
    assembler.accept({ type: "response.created", response: { id: "resp_1", status: "in_progress", output: [] } });
    assembler.accept({ type: "response.output_item.done", output_index: 0, item: message });
    const final = {
      id: "resp_1",
      object: "response",
      status: "completed",
      output: [message],
      usage: { input_tokens: 3, output_tokens: 2 },
      vendor_extra: 1,
    };
    assembler.accept({ type: "response.completed", response: final });
    expect(assembler.response()).toEqual(final);
  });

  it("R-ST-6: a terminal event without output gets the items finished along the way, in output order", () => {
    const assembler = new ResponsesAssembler();
    const call = { type: "function_call", id: "fc_1", call_id: "call_1", name: "f", arguments: "{}" };
    assembler.accept({ type: "response.output_item.done", output_index: 1, item: call });
    assembler.accept({ type: "response.output_item.done", output_index: 0, item: message });
    assembler.accept({ type: "response.incomplete", response: { id: "resp_2", status: "incomplete", output: [] } });
    expect(assembler.response()).toEqual({ id: "resp_2", status: "incomplete", output: [message, call] });
  });
});
