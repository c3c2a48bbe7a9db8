/** Kept apart from outage.ts so that naming a Redis URL (the gateway banner) does not load the Redis client. */

/** The URL without user or password, for logs. */
export function redactUrl(url: string): string {
  try {
    const parsed = new URL(url);
    parsed.username = "";
    parsed.password = "";
    return parsed.toString();
  } catch {
    return "(unparseable Redis URL)";
  }
}
