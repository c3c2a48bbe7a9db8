/**
 * `--key -`: the secret comes from stdin, so it never lands in shell history or the process list. Only the
 * line ending is stripped; a key is otherwise taken exactly as given.
 */
import type { Readable } from "node:stream";
import { CliUsageError } from "./output.js";

const MAX_SECRET_BYTES = 64 * 1024;

export async function readAll(stream: Readable, maxBytes = MAX_SECRET_BYTES): Promise<string> {
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of stream) {
    const buffer = typeof chunk === "string" ? Buffer.from(chunk) : (chunk as Buffer);
    size += buffer.length;
    if (size > maxBytes) throw new CliUsageError(`stdin holds more than ${maxBytes} bytes, more than this input may be.`);
    chunks.push(buffer);
  }
  return Buffer.concat(chunks).toString("utf8");
}

export async function readSecretArgument(value: string, stdin: Readable, flag = "--key"): Promise<string> {
  const secret = value === "-" ? (await readAll(stdin)).replace(/\r?\n$/, "") : value;
  if (secret.trim() === "") {
    throw new CliUsageError(
      value === "-"
        ? `${flag} -: nothing was read from stdin. Pipe the key in, e.g. \`pbpaste | detour auth add openai ${flag} -\`.`
        : `${flag} is empty. Pass the key, or \`${flag} -\` to read it from stdin.`,
    );
  }
  return secret;
}
