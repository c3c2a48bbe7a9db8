/**
 * `detour demo | head` closes the demo's stdout while its servers are running. Node reports that as an
 * 'error' event on the stream (EPIPE), which — unhandled — ends the process at once and skips the cleanup
 * that stops the servers and removes the temp dir. Listening for it turns a closed output into an ordinary
 * stop of the demo.
 */
import type { OutputStream } from "../terminal/output.js";

type ErrorEmitter = {
  on(event: "error", listener: (error: Error) => void): unknown;
  off(event: "error", listener: (error: Error) => void): unknown;
};

function isErrorEmitter(stream: OutputStream): stream is OutputStream & ErrorEmitter {
  const candidate = stream as Partial<ErrorEmitter>;
  return typeof candidate.on === "function" && typeof candidate.off === "function";
}

/** Calls `onClosed` once when writing to the stream fails; returns the function that stops listening. */
export function onOutputClosed(stream: OutputStream, onClosed: (error: Error) => void): () => void {
  if (!isErrorEmitter(stream)) return () => undefined;
  let reported = false;
  const listener = (error: Error) => {
    if (reported) return;
    reported = true;
    onClosed(error);
  };
  stream.on("error", listener);
  // Later writes to the dead stream fail too; the listener stays attached so they are absorbed, not thrown.
  return () => {
    if (!reported) stream.off("error", listener);
  };
}
