/**
 * The learned first-token summary on Redis (R-TT-1), read by every replica and CLI: one hash under the agent's
 * hash tag, field "provider/model" → the row and when it was written. Each write re-arms the key's lifetime,
 * so a summary nobody writes any more leaves nothing behind; rows are filtered by their write time on read.
 */
import {
  byModel,
  FIRST_TOKEN_SUMMARY_TTL_MS,
  type FirstTokenSummaryRow,
  type FirstTokenSummaryStore,
} from "../../ports/first-token-summary.js";
import { assertSafeAgentId } from "../shared/agent-id.js";
import { connectBestEffortRedis, type RedisClient } from "./redis-connection.js";

interface StoredRow {
  writtenAt: number;
  row: FirstTokenSummaryRow;
}

export function redisFirstTokenSummaryKey(keyPrefix: string, agentId: string): string {
  assertSafeAgentId(agentId);
  return `${keyPrefix}:{${agentId}}:first-token`;
}

export class RedisFirstTokenSummary implements FirstTokenSummaryStore {
  readonly #client: RedisClient;
  readonly #key: string;

  private constructor(client: RedisClient, key: string) {
    this.#client = client;
    this.#key = key;
  }

  static async connect(options: {
    url: string;
    keyPrefix: string;
    agentId: string;
    connectTimeoutMs?: number;
  }): Promise<RedisFirstTokenSummary> {
    const key = redisFirstTokenSummaryKey(options.keyPrefix, options.agentId);
    const client = await connectBestEffortRedis(options);
    return new RedisFirstTokenSummary(client, key);
  }

  async write(rows: readonly FirstTokenSummaryRow[], now: number): Promise<void> {
    const stored = await this.#client.hGetAll(this.#key);
    const expired = Object.entries(stored)
      .filter(([, value]) => parse(value).writtenAt <= now - FIRST_TOKEN_SUMMARY_TTL_MS)
      .map(([field]) => field);
    const batch = this.#client.multi();
    if (expired.length > 0) batch.hDel(this.#key, expired);
    if (rows.length > 0) {
      batch.hSet(
        this.#key,
        Object.fromEntries(
          rows.map((row) => [`${row.provider}/${row.model}`, JSON.stringify({ writtenAt: now, row } satisfies StoredRow)]),
        ),
      );
    }
    batch.pExpire(this.#key, FIRST_TOKEN_SUMMARY_TTL_MS);
    await batch.exec();
  }

  async read(now: number): Promise<FirstTokenSummaryRow[]> {
    const stored = await this.#client.hGetAll(this.#key);
    return Object.values(stored)
      .map(parse)
      .filter((entry) => entry.writtenAt > now - FIRST_TOKEN_SUMMARY_TTL_MS)
      .map((entry) => entry.row)
      .sort(byModel);
  }

  async close(): Promise<void> {
    if (this.#client.isOpen) await this.#client.quit();
  }
}

function parse(value: string): StoredRow {
  return JSON.parse(value) as StoredRow;
}
