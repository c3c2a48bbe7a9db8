/**
 * Which providers the same-wire lane (SPEC R-GW-6) can call with a client's bytes, and how: a built-in
 * provider whose wire format has a lane gets its format's URL, auth and error reader for a raw call.
 * Injected providers (test doubles, custom adapters) keep their own behaviour: the canonical path.
 */
import type { Credential } from "../core/types.js";
import type { Provider } from "../ports/provider.js";
import { wireFormatNamed, type WireFormat, type WireFormatId } from "../wire/formats.js";
import { anthropicPassThroughTarget } from "./anthropic/anthropic-pass-through.js";
import { HttpProvider } from "./http-provider.js";
import { isBuiltInProvider } from "./registry.js";
import { passThroughTargetOf } from "./shared/provider-quirks.js";
import type { PassThroughTarget } from "./shared/pass-through-call.js";
import type { ProviderSettings } from "./shared/provider-settings.js";

type TargetBuilder = (
  settings: ProviderSettings,
  credential: Credential | undefined,
  stream: boolean,
  clientHeaders: Readonly<Record<string, string>> | undefined,
) => PassThroughTarget;

const TARGET_BUILDERS: Readonly<Partial<Record<WireFormatId, TargetBuilder>>> = {
  "anthropic-messages": (settings, credential, stream, clientHeaders) => anthropicPassThroughTarget(settings, credential, stream, clientHeaders),
};

/** A provider the lane can call raw: its wire format, and the call for one attempt. */
export interface SameWireTarget {
  readonly wire: WireFormat;
  target(credential: Credential | undefined, stream: boolean, clientHeaders: Readonly<Record<string, string>> | undefined, model: string): PassThroughTarget;
}

/** `settings` as resolved for `provider`; undefined when the lane cannot call it raw. */
export function sameWireTargetOf(provider: Provider, settings: ProviderSettings): SameWireTarget | undefined {
  if (provider instanceof HttpProvider) {
    const wire = provider.wire;
    if (!wire.lane) return undefined;
    // The provider's own endpoint: the lane's call goes where the canonical one goes, signed the same way.
    const endpoint = provider.quirks.endpoint(settings);
    return {
      wire,
      target: (credential, stream, client, model) =>
        passThroughTargetOf(settings, endpoint, wire.errors.read, { url: endpoint.url(model, stream), credential, stream, ...(client ? { client } : {}) }),
    };
  }
  if (!isBuiltInProvider(provider)) return undefined;
  const wire = wireFormatNamed(provider.api);
  const build = wire?.lane ? TARGET_BUILDERS[wire.id] : undefined;
  if (!wire || !build) return undefined;
  return { wire, target: (credential, stream, clientHeaders) => build(settings, credential, stream, clientHeaders) };
}
