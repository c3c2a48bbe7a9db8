/**
 * Racing a promise against an AbortSignal, for work that does not obey the signal itself (a library call, a
 * shared in-flight refresh): the caller stops waiting at once, the work goes on for whoever else waits on it.
 */
/**
 * Settles with `promise`, or rejects with the signal's reason as soon as it aborts, even when the work
 * ignores the signal.
 */
export function raceAbort<T>(promise: Promise<T>, signal: AbortSignal): Promise<T> {
  if (signal.aborted) return Promise.reject(signal.reason);
  return new Promise<T>((resolve, reject) => {
    const onAbort = () => reject(signal.reason);
    signal.addEventListener("abort", onAbort, { once: true });
    promise.then(
      (value) => {
        signal.removeEventListener("abort", onAbort);
        resolve(value);
      },
      (error: unknown) => {
        signal.removeEventListener("abort", onAbort);
        reject(error);
      },
    );
  });
}
