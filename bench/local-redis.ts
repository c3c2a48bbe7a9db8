/**
 * The Redis the benches measure against when one runs on this machine (the default port). A bench without
 * it leaves its Redis rows out instead of failing.
 */
import { connect } from "node:net";

export const LOCAL_REDIS_URL = "redis://127.0.0.1:6379";

/** Whether a Redis answers PING on 127.0.0.1:6379 within half a second. */
export function localRedisAnswers(): Promise<boolean> {
  return new Promise((resolve) => {
    const socket = connect({ host: "127.0.0.1", port: 6379 });
    const done = (answer: boolean) => {
      socket.destroy();
      resolve(answer);
    };
    socket.setTimeout(500, () => done(false));
    socket.on("error", () => done(false));
    socket.on("connect", () => socket.write("PING\r\n"));
    socket.on("data", (data) => done(data.toString().startsWith("+PONG")));
  });
}
