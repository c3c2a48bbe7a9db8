/**
 * Whether the gateway can listen where it was asked to, checked before anything else is looked at (the
 * credentials, the safety of the bind), so a mistyped host or a busy port is reported as what it is.
 */
import { lookup } from "node:dns/promises";
import { createServer, isIP } from "node:net";
import { ERROR_CODES, DetourError } from "../core/errors.js";

/** The host is not an address of this machine, or its name does not resolve. */
export class GatewayCannotBindError extends DetourError {
  readonly code = ERROR_CODES.gatewayCannotBind;
}

/** Another process already listens on the port the gateway was asked to bind. */
export class GatewayPortInUseError extends DetourError {
  readonly code = ERROR_CODES.gatewayPortInUse;
  readonly host: string;
  readonly port: number;
  constructor(host: string, port: number, cause: unknown) {
    super(
      `Port ${port} on ${host} is already in use (another gateway, or another program). Stop it, or start this ` +
        `one on another port with \`detour gateway --port <port>\` (or set gateway.port in detour.json5).`,
      { cause },
    );
    this.host = host;
    this.port = port;
  }
}

function codeOf(error: unknown): string | undefined {
  const code = (error as { code?: unknown } | null)?.code;
  return typeof code === "string" ? code : undefined;
}

const HOST_ADVICE = "Use an address of this machine (127.0.0.1, or 0.0.0.0 for every interface) with --host or gateway.host.";

/** @throws GatewayCannotBindError, GatewayPortInUseError */
export async function checkBindable(host: string, port: number): Promise<void> {
  if (isIP(host.replace(/^\[|\]$/g, "")) === 0) {
    try {
      await lookup(host);
    } catch (error) {
      throw new GatewayCannotBindError(
        `Cannot start the gateway on "${host}": the name does not resolve (${codeOf(error) ?? "lookup failed"}). ${HOST_ADVICE}`,
        {
          cause: error,
        },
      );
    }
  }
  await new Promise<void>((resolve, reject) => {
    const probe = createServer();
    probe.once("error", reject);
    probe.listen({ host: host.replace(/^\[|\]$/g, ""), port, exclusive: true }, () => probe.close(() => resolve()));
  }).catch((error: unknown) => {
    const code = codeOf(error);
    if (code === "EADDRINUSE") throw new GatewayPortInUseError(host, port, error);
    if (code === "EADDRNOTAVAIL") {
      throw new GatewayCannotBindError(`Cannot start the gateway on ${host}: it is not an address of this machine. ${HOST_ADVICE}`, {
        cause: error,
      });
    }
    if (code === "EACCES") {
      throw new GatewayCannotBindError(
        `Cannot start the gateway on port ${port}: ports below 1024 need administrator rights. Use --port 4141 or another port above 1023.`,
        {
          cause: error,
        },
      );
    }
    throw error;
  });
}
