/**
 * For wire formats that send a tool call whole (Gemini, Ollama): the canonical stream may bring a call's
 * arguments in pieces, so a call is held until its arguments are one complete JSON object, then sent once.
 */
export interface WholeToolCall {
  id?: string;
  name: string;
  arguments: string;
}

function isWholeObject(text: string): boolean {
  try {
    const value: unknown = JSON.parse(text);
    return typeof value === "object" && value !== null && !Array.isArray(value);
  } catch {
    return false;
  }
}

export class PendingToolCalls {
  readonly #calls = new Map<number, WholeToolCall & { sent: boolean }>();

  /** The call, once complete with this delta; undefined while its arguments are still arriving (or it went out). */
  accept(delta: { index: number; id?: string; name?: string; argumentsDelta?: string }): WholeToolCall | undefined {
    const call = this.#calls.get(delta.index) ?? { name: "", arguments: "", sent: false };
    this.#calls.set(delta.index, call);
    if (call.sent) return undefined;
    if (delta.id !== undefined) call.id = delta.id;
    if (delta.name !== undefined) call.name = delta.name;
    call.arguments += delta.argumentsDelta ?? "";
    if (call.name === "" || !isWholeObject(call.arguments)) return undefined;
    call.sent = true;
    return call;
  }

  /** The calls not sent yet, at the end of the answer: whatever arrived is all there is. */
  flush(): WholeToolCall[] {
    const unsent = [...this.#calls.values()].filter((call) => !call.sent);
    for (const call of unsent) call.sent = true;
    return unsent;
  }
}
