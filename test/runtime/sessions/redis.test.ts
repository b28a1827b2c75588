import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createRedisSessionStore } from '../../../src/runtime/sessions/redis.js';
import type { TurnStore } from '../../../src/runtime/sessions/types.js';
import { record, storeContract, uniqueEpisode } from './contract.js';
import { mustHaveRedis, redisAvailable, startRedis, type RedisServer } from './redis-server.js';

let server: RedisServer | undefined;

describe('redis-server for the Redis store tests', () => {
  it('is installed (required in CI)', () => {
    if (mustHaveRedis) expect(redisAvailable, 'redis-server must be on PATH in CI (see .ci/run)').toBe(true);
  });
});

describe.runIf(redisAvailable || mustHaveRedis)('redis', () => {
  beforeAll(async () => {
    server = await startRedis();
  });
  afterAll(async () => {
    await server?.stop();
  });

  storeContract('redis', {
    make: (opts = {}) => createRedisSessionStore(server!.url, { ttlMs: opts.ttlMs }),
    advance: (ms) => new Promise((r) => setTimeout(r, ms)),
    ttlMs: 400,
  });

  it('two runtimes’ clients on one server see each other’s turns and metadata', async () => {
    const a: TurnStore = await createRedisSessionStore(server!.url);
    const b: TurnStore = await createRedisSessionStore(server!.url);
    const ep = uniqueEpisode('two');
    await Promise.all(Array.from({ length: 100 }, (_, i) => (i % 2 === 0 ? a : b).appendTurn(ep, 'orch', record(`t${i}`, 'u', 'a'))));
    await a.setMeta(ep, 'vendor_conversation_id', 'conv-1', { ttlMs: 55 * 60_000 });
    expect((await b.turns(ep, 'orch')).map((r) => r.id).sort()).toEqual(Array.from({ length: 100 }, (_, i) => `t${i}`).sort());
    expect(await b.getMeta(ep, 'vendor_conversation_id')).toBe('conv-1');
    await a.close();
    await b.close();
  });
});
