import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { openRunSessions } from '../../../src/cli/run-sessions.js';

const dir = mkdtempSync(join(tmpdir(), 'agentc-run-sessions-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe('agentc run --sessions / --episode', () => {
  it('without --sessions: the runtime default, the episode passed through', async () => {
    const r = await openRunSessions({ episode: 'ep-9' }, dir);
    expect(r.ok && r.value.store === undefined && r.value.episode === 'ep-9').toBe(true);
  });

  it('a relative sqlite path is relative to the working directory', async () => {
    const r = await openRunSessions({ sessions: 'sqlite:s.db' }, dir);
    if (!r.ok) throw new Error(r.message);
    await r.value.store!.setMeta('e', 'k', 1);
    await r.value.close();
    const again = await openRunSessions({ sessions: `sqlite:${join(dir, 's.db')}` }, '/');
    if (!again.ok) throw new Error(again.message);
    expect(await again.value.store!.getMeta('e', 'k')).toBe(1);
    await again.value.close();
  });

  it('bad locations are usage errors naming the cause', async () => {
    expect(await openRunSessions({ sessions: 'postgres://x' }, dir)).toEqual({
      ok: false,
      message: 'cannot open session store postgres://x: Unknown session store "postgres://x": use memory, sqlite:PATH or redis://HOST:PORT.',
    });
    expect(await openRunSessions({ sessions: 'sqlite:' }, dir)).toMatchObject({ ok: false, message: expect.stringContaining('needs a file path') });
    expect(await openRunSessions({ sessions: `sqlite:${join(dir, 'no/such/dir/s.db')}` }, dir)).toMatchObject({
      ok: false,
      message: expect.stringContaining('cannot open session store'),
    });
    expect(await openRunSessions({ sessions: 'redis://127.0.0.1:1' }, dir)).toMatchObject({
      ok: false,
      message: expect.stringContaining('cannot open session store redis://127.0.0.1:1'),
    });
    expect(await openRunSessions({ episode: ' ' }, dir)).toEqual({ ok: false, message: '--episode needs a non-empty id.' });
  });
});
