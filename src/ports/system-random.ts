/** The real `Random`: uniform floats from the operating system's CSPRNG via node:crypto. */
import { randomInt } from "node:crypto";
import type { Random } from "./random.js";

/** The widest range `randomInt` accepts (2^48 - 1); 48 bits are plenty for jitter and shuffles. */
const RANGE = 2 ** 48 - 1;

export const cryptoRandom: Random = {
  // randomInt's upper bound is exclusive, so the quotient stays below 1.
  next: () => randomInt(0, RANGE) / RANGE,
};
