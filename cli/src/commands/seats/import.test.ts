/**
 * `waymark seats import` reports every bad line of a roster at once: an empty e-mail cell used to hide
 * every malformed address after it (one fix, one run, the next problem).
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { freePort, runWaymark } from '../../../test/harness';
import { createHttp } from '../../core/http';
import { SessionStore } from '../../core/session';

const dir = mkdtempSync(join(tmpdir(), 'waymark-seats-import-'));
const http = createHttp();
afterAll(async () => {
  await http.close();
  rmSync(dir, { recursive: true, force: true });
});

describe('waymark seats import', () => {
  it('names every bad line at once, an empty e-mail cell and malformed addresses alike, and writes nothing', async () => {
    const file = join(dir, 'roster.csv');
    writeFileSync(
      file,
      [
        'name,email',
        'Asha,asha@example.com',
        'Ravi,',
        'Mei,mei(at)example.com',
        'Tom,tom@example.com',
        'Ola,ola@@example.com',
      ].join('\n'),
    );
    // nothing is sent: the file is refused before the server is asked anything
    const server = `http://127.0.0.1:${await freePort()}`;
    const res = await runWaymark(['--server', server, 'seats', 'import', file], {
      sessions: new SessionStore(join(dir, 'session.json')),
      http,
      env: { WAYMARK_TOKEN: 'not-used' },
    });
    expect(res.code).toBe(7);
    expect(res.events.filter((e) => e.event === 'invalid').map((e) => [e.line, e.value])).toEqual([
      [3, ''],
      [4, 'mei(at)example.com'],
      [6, 'ola@@example.com'],
    ]);
    expect(res.err).toContain('3 lines with a problem; nothing was written.');
  });
});
