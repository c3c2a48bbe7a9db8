/**
 * The live view for people: each step, each fault, each request's route (the model that answered, the
 * profile, failed attempts, rotations, the notice) and a compact panel of the profiles with their cooldown
 * timers, printed whenever a profile's state changes. On a TTY the panel's timers tick in place while the
 * demo clock skips ahead; elsewhere every line is printed once, plain, with no escape codes.
 */
import type { CliOutput, OutputStream } from "../terminal/output.js";
import type {
  DemoEvent,
  DemoSink,
  HedgeDemoEvent,
  HeadroomPassedOverEvent,
  ProfileFailureEvent,
  ProfilesEvent,
  RotationEvent,
  RouteEvent,
  SeatsEvent,
} from "./demo-events.js";
import { formatDuration } from "./format-duration.js";
import type { ProfileState } from "./profile-states.js";
import { renderSummary } from "./render-summary.js";

type Colors = CliOutput["colors"];

const INDENT = "      ";
const PANEL_LABEL = "profiles";

const INTRO = [
  "Detour sits between your app and its LLM providers. When a key is rate-limited or out of credits, it",
  "rotates to another key — and when a key's rate-limit headers say it is nearly spent, it moves on before",
  "the limit; when a whole provider is down, it falls back to another model and tells the user once. Below,",
  "a chat session talks to a real Detour gateway while faults are injected into two mock providers.",
  "No keys, no network: everything runs on 127.0.0.1 and is removed at the end.",
];

const LEGEND =
  "✓ answer  ✗ failed attempt  ⟳ key rotation  ↷ moved before a limit  ⇉ hedge  ⧗ waited for a seat  ⚡ fault injected  ⏩ clock skip  » what happened";

export class LiveView implements DemoSink {
  readonly #out: OutputStream;
  readonly #colors: Colors;
  readonly #tty: boolean;
  readonly #notes = new Map<number, string>();
  #pending: (RotationEvent | ProfileFailureEvent | HeadroomPassedOverEvent | HedgeDemoEvent)[] = [];
  /** The demo's main session; requests of another session say which one they belong to. */
  #mainSession: string | undefined;
  #lastPanelKey = "";
  #lastProfiles: readonly ProfileState[] = [];
  /** Lines of the panel currently drawn at the bottom of a TTY, rewritten by ticks. */
  #livePanelLines = 0;

  constructor(out: OutputStream, colors: Colors, options: { tty: boolean }) {
    this.#out = out;
    this.#colors = colors;
    this.#tty = options.tty;
  }

  emit(event: DemoEvent): void {
    const c = this.#colors;
    switch (event.type) {
      case "demo_started":
        this.#mainSession = event.session;
        this.#line(c.bold("Detour demo"));
        // A newcomer has never heard of Detour: say what it is before showing what it does.
        for (const line of INTRO) this.#line(line);
        this.#line();
        this.#line(`  gateway    ${event.gateway}  ${c.dim("(Detour itself, with an embedded SQLite store in a temp dir)")}`);
        this.#line(`  openai     mock provider ${event.mocks.openai}  ${c.dim(`keys ${idsOf(event, "openai")} (tried in this order)`)}`);
        this.#line(`  anthropic  mock provider ${event.mocks.anthropic}  ${c.dim(`key ${idsOf(event, "anthropic")}`)}`);
        this.#line(`  session    ${event.session} asks for ${c.bold(event.primaryModel)}, fallback ${event.fallbackModel}`);
        this.#line(c.dim(`  legend     ${LEGEND}`));
        return;
      case "step":
        this.#line();
        this.#line(c.bold(c.cyan(`[${event.step}/${event.of}] ${event.title}`)));
        this.#line(`${INDENT}${c.dim(event.detail)}`);
        return;
      case "fault":
        this.#line(event.active ? `  ${c.yellow("⚡ fault")}  ${event.description}` : `  ${c.green("✓ fixed")}  ${event.description}`);
        return;
      case "budget":
        this.#line(event.active ? `  ${c.yellow("⚡ budget")} ${event.description}` : `  ${c.green("✓ lifted")} ${event.description}`);
        return;
      case "clock":
        // The first skip explains itself once: the rules keep their real length, only the demo's clock jumps.
        this.#line(
          `  ${c.blue(`⏩ +${formatDuration(event.skippedMs)}`)}  ${event.why}` +
            (event.totalSkippedMs === event.skippedMs ? c.dim(" (the demo's clock skips ahead; every rule keeps its real length)") : ""),
        );
        this.#openLivePanel();
        return;
      case "request":
        this.#notes.set(event.request, event.note ?? "");
        this.#line(
          `  ${c.bold(`#${event.request}`)} ${this.#mainSession !== undefined && event.session !== this.#mainSession ? c.dim(`(session ${event.session}) `) : ""}` +
            JSON.stringify(event.message),
        );
        return;
      case "rotation":
      case "profile_failure":
      case "headroom_passed_over":
      case "hedge":
        // Shown under the request's attempts, once its route is known.
        this.#pending.push(event);
        return;
      case "route":
        this.#route(event);
        return;
      case "seats":
        this.#seats(event);
        return;
      case "notice":
        // The gateway sends it to the client (x-detour-notice header) for the app to show its user.
        this.#line(`${INDENT}${c.dim("notice to the user:")} ${c.bold(c.magenta(event.text))}`);
        return;
      case "profiles":
        this.#profiles(event);
        return;
      case "summary":
        this.#line();
        for (const line of renderSummary(event, c, this.#tty)) this.#line(line);
        return;
      case "cleanup":
        this.#line(
          c.dim(
            event.removed
              ? `Stopped the gateway and the mock providers; removed ${event.workspace}.`
              : `Stopped the gateway and the mock providers, but could not remove ${event.workspace}; delete it by hand.`,
          ),
        );
        this.#line();
        this.#line("Next:");
        this.#line(`  ${c.bold("detour auth add openai --key -")}   store your own key (read from stdin)`);
        this.#line(`  ${c.bold("detour gateway")}                   serve it; point an OpenAI client at http://127.0.0.1:4141/v1`);
        this.#line(`  ${c.bold("detour mock-provider --list")}      faults you can script to test your own setup`);
        return;
    }
  }

  tick(now: number): void {
    if (!this.#tty || this.#livePanelLines === 0) return;
    this.#redrawPanel(this.#panelLines(this.#lastProfiles, now));
  }

  #route(event: RouteEvent): void {
    const c = this.#colors;
    // Passed over before any call, so told before the attempts.
    for (const item of this.#pending) {
      if (item.type === "headroom_passed_over") this.#line(`${INDENT}${c.yellow("↷")} ${passedOverText(item)}`);
    }
    for (const item of this.#pending) {
      if (item.type === "hedge") this.#line(`${INDENT}${c.yellow("⇉")} ${hedgeText(item)}`);
    }
    const raced = this.#pending.some((item) => item.type === "hedge");
    for (const attempt of event.attempts) {
      if (attempt.outcome === "succeeded") continue;
      if (attempt.outcome === "aborted" && raced) {
        const why = attempt.hedge ? "was the hedge; it lost the race and was closed" : "sent nothing; closed, the hedge answered first";
        this.#line(`${INDENT}${c.dim("–")} ${attempt.profileId ?? "(no profile)"} ${c.dim(`${attempt.provider}/${attempt.model} ${why}`)}`);
        continue;
      }
      const where = `${attempt.profileId ?? "(no profile)"} ${c.dim(`${attempt.provider}/${attempt.model}`)}`;
      const failure = this.#pending.find(
        (item): item is ProfileFailureEvent => item.type === "profile_failure" && item.profileId === attempt.profileId,
      );
      const lane =
        failure && failure.lane !== "ready"
          ? ` → ${failure.lane}${failure.remainingMs !== null ? ` ${formatDuration(failure.remainingMs)}` : ""}`
          : "";
      this.#line(`${INDENT}${c.red("✗")} ${where} ${attempt.status ?? ""} ${attempt.reason ?? ""}${lane}`.trimEnd());
    }
    for (const item of this.#pending) {
      if (item.type === "rotation")
        this.#line(`${INDENT}${c.yellow("⟳ rotated")} ${item.from} → ${item.to} ${c.dim(`(same model, ${item.reason})`)}`);
    }
    this.#pending = [];
    const note = this.#notes.get(event.request);
    if (event.status === 200) {
      const hedged = event.attempts.some((attempt) => attempt.hedge === true && attempt.outcome === "succeeded")
        ? c.yellow(" · answered by the hedge")
        : "";
      const probe = event.probedPrimary ? c.dim(" · primary re-probed") : "";
      const rescued = event.continued ? c.yellow(" · cut mid-stream, continued") : "";
      const waited = event.waitedForSeat ? c.yellow(" · ⧗ waited in line for a seat") : "";
      this.#line(
        `${INDENT}${c.green("✓")} ${c.bold(event.model ?? "?")} via ${event.profileId ?? "?"} ${c.dim(`${event.elapsedMs} ms`)}${probe}${rescued}${hedged}${waited}`,
      );
    } else {
      this.#line(`${INDENT}${c.red(`✗ HTTP ${event.status}`)} ${event.reply}`);
    }
    // The one answer the reader got, seam included: the point of a rescued stream.
    if (event.continued && event.status === 200) this.#line(`${INDENT}${c.dim("answer:")} ${event.reply}`);
    if (note) this.#line(`${INDENT}${c.dim(`» ${note}`)}`);
  }

  /** Per account: how many sub-agents it answered and the most it ever had in flight, against its seats. */
  #seats(event: SeatsEvent): void {
    const c = this.#colors;
    const width = Math.max(...event.accounts.map((account) => account.profileId.length));
    this.#line(`${INDENT}${c.bold(`${event.answered}/${event.subAgents} sub-agents answered`)}, spread over the accounts:`);
    for (const account of event.accounts) {
      const full = account.maxInFlight > event.limit ? c.red : c.green;
      this.#line(
        `${INDENT}  ${account.profileId.padEnd(width)}  answered ${account.answered}  ` +
          `${full(`at most ${account.maxInFlight}/${event.limit} in flight`)}  ${c.dim(`refused by the provider: ${account.refused}`)}`,
      );
    }
    const refused = event.accounts.reduce((sum, account) => sum + account.refused, 0);
    this.#line(
      `${INDENT}${c.dim(`» ${event.waited} waited in line for a free seat; full accounts passed over ${event.passedOver}× before a call; ${refused} concurrency 429s upstream`)}`,
    );
  }

  #profiles(event: ProfilesEvent): void {
    this.#lastProfiles = event.profiles;
    const lines = this.#panelLines(event.profiles, event.now);
    if (this.#livePanelLines > 0) {
      this.#redrawPanel(lines);
      this.#livePanelLines = 0;
      this.#lastPanelKey = panelKey(event.profiles);
      return;
    }
    const key = panelKey(event.profiles);
    if (key === this.#lastPanelKey) return;
    this.#lastPanelKey = key;
    for (const line of lines) this.#line(line);
  }

  /** On a TTY the panel is drawn now and its timers are updated in place until the skip ends. */
  #openLivePanel(): void {
    if (!this.#tty || this.#lastProfiles.length === 0) return;
    const lines = this.#panelLines(this.#lastProfiles);
    for (const line of lines) this.#line(line);
    this.#livePanelLines = lines.length;
  }

  #redrawPanel(lines: readonly string[]): void {
    // Cursor up over the drawn panel, then rewrite each line (erasing what was there).
    this.#out.write(`\x1b[${this.#livePanelLines}A`);
    for (const line of lines) this.#out.write(`\x1b[2K${line}\n`);
  }

  /** `now` moves the timers along (a skip in progress); without it they read as in the snapshot. */
  #panelLines(profiles: readonly ProfileState[], now?: number): string[] {
    const width = Math.max(...profiles.map((profile) => profile.id.length));
    return profiles.map((profile, index) => {
      const label = index === 0 ? PANEL_LABEL : " ".repeat(PANEL_LABEL.length);
      return `${INDENT}${this.#colors.dim(label)}  ${profile.id.padEnd(width)}  ${this.#laneText(profile, now)}`;
    });
  }

  #laneText(profile: ProfileState, now: number | undefined): string {
    const c = this.#colors;
    const remaining = profile.until === undefined || now === undefined ? profile.remainingMs : profile.until - now;
    if (profile.lane === "ready" || remaining === undefined || remaining <= 0) {
      const headroom = profile.headroom;
      if (!headroom?.nearlySpent || (now !== undefined && headroom.resetAt <= now)) return c.green("● ready");
      const share = headroom.remainingShare !== null ? `${Math.round(headroom.remainingShare * 1000) / 10}% of ` : "";
      const resetsIn = now === undefined ? headroom.resetsInMs : headroom.resetAt - now;
      return c.yellow(`◔ ready, nearly spent (${share}${headroom.window} left, resets in ${formatDuration(resetsIn)})`);
    }
    const text = `${profile.lane} ${formatDuration(remaining)}${profile.reason ? ` (${profile.reason})` : ""}`;
    return profile.lane === "disabled" ? c.red(`■ ${text}`) : c.yellow(`◔ ${text}`);
  }

  #line(text = ""): void {
    this.#out.write(`${text}\n`);
  }
}

/** `passed over openai:alpha: nearly spent (3% of its requests window left, resets in 59s) → the session moves to …`. */
export function passedOverText(event: HeadroomPassedOverEvent): string {
  const state =
    event.why === "window_status"
      ? `its ${event.window} window says it is about to be limited`
      : `${event.remainingShare !== null ? `${Math.round(event.remainingShare * 1000) / 10}%` : "almost nothing"} of its ${event.window} window left`;
  const to = event.toProfileId ?? "another key";
  const move = event.pinMoved ? `the session moves to ${to} before this turn` : `this turn goes to ${to}`;
  return `passed over ${event.profileId}: nearly spent (${state}, resets in ${formatDuration(event.resetsInMs)}) → ${move}`;
}

/** `openai:alpha openai/gpt-4o-mini sent nothing for 5s → hedged: the rest of the chain raced it (won)`. */
export function hedgeText(event: HedgeDemoEvent): string {
  const slow = `${event.profileId ?? "(no profile)"} ${event.provider}/${event.model}`;
  const after = formatDuration(event.afterMs);
  switch (event.outcome) {
    case "started":
      return `${slow} sent nothing for ${after} → hedge started: the next route in the chain races it`;
    case "won":
      return `the hedge answered first; ${slow} was closed without a failure on its record`;
    case "lost":
      return `${slow} answered first after all; the hedge was closed`;
    case "budget_denied":
      return `${slow} sent nothing for ${after}, but the hedge budget is spent: no hedge`;
  }
}

function idsOf(event: Extract<DemoEvent, { type: "demo_started" }>, provider: string): string {
  return event.profiles
    .filter((profile) => profile.provider === provider)
    .map((profile) => profile.id)
    .join(", ");
}

/** The panel is reprinted when a lane or reason changes, not when a timer merely counts down. */
function panelKey(profiles: readonly ProfileState[]): string {
  return profiles
    .map(
      (profile) => `${profile.id}:${profile.lane}:${profile.reason ?? ""}:${profile.headroom?.nearlySpent === true ? "nearly-spent" : ""}`,
    )
    .join("|");
}
