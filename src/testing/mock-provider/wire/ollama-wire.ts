/**
 * Ollama native chat (`POST /api/chat`), on the format's own server codecs: JSON answers and NDJSON streams
 * (streaming is the default, as in Ollama; the last line carries the finish reason and counts), errors as
 * `{"error":"…"}`.
 */
import { ollamaWire as ollamaFormat } from "../../../wire/ollama/index.js";
import { codecWire } from "./codec-wire.js";

export const ollamaWire = codecWire({ api: "ollama", format: ollamaFormat, streamContentType: "application/x-ndjson" });
