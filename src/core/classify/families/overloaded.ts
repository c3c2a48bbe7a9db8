/** overloaded (R-EC-5): the provider has no capacity right now; the credential is fine. */
import type { MessageRule } from "../rule-types.js";

const row = (id: string, pattern: RegExp): MessageRule => ({ id: `overloaded/${id}`, reason: "overloaded", pattern });

const UNAVAILABLE = String.raw`service (?:is )?(?:temporarily )?unavailable`;
const CAPACITY_WORDS = String.raw`(?:capacity|overload(?:ed)?|high demand|busy|heavy load|high load)`;

export const OVERLOADED_RULES: readonly MessageRule[] = [
  row("overloaded", /\boverloaded\b/i),
  row("overloaded-error", /\boverloaded_error\b/i),
  row("at-capacity", /\bat capacity\b/i),
  row("high-demand", /\bhigh demand\b|\bhigh (?:load|traffic)\b/i),
  row(
    "unavailable-with-capacity",
    new RegExp(String.raw`\b${UNAVAILABLE}\b[^\n]{0,80}?\b${CAPACITY_WORDS}|\b${CAPACITY_WORDS}\b[^\n]{0,80}?\b${UNAVAILABLE}\b`, "i"),
  ),
  row("model-not-ready", /\bmodelnotreadyexception\b/i),
  row("service-unavailable-exception", /\bserviceunavailableexception\b/i),
  row("capacity-exceeded", /\bcapacity exceeded\b|\b(?:insufficient|no|out of) capacity\b/i),
  // Chinese providers: service overloaded, load too high, too many visits (GLM 1305).
  row("cjk-overloaded", /服务过载|负载过高|负载已饱和|访问量过大|系统繁忙/),
  row("server-busy", /\bserver (?:is )?busy\b|\bmaximum pending requests exceeded\b/i),
];
