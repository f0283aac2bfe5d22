/**
 * The real app for the CLI's real-server tests of authoring commands: on a PGlite clone, listening on a
 * free port, with the subjects and topics the question editor offers (DEMO_SUBJECTS), a folder of its own,
 * and the CLI's HTTP and session store for it. Kept apart from harness.ts, which unit tests import too.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { subjects, topics } from '@server/db/schema';
import { DEMO_SUBJECTS } from '@server/demo/lists';
import { TestServer } from '@server/test/helper';
import { createHttp } from '../src/core/http';
import { SessionStore } from '../src/core/session';
import { freePort } from './harness';

export async function startAuthoringServer(prefix: string, env: Record<string, string> = {}) {
  const dir = mkdtempSync(join(tmpdir(), prefix));
  const port = await freePort();
  const api = new TestServer({
    env: { HOST: '127.0.0.1', PORT: String(port), DATA_DIR: join(dir, 'data'), ...env },
  });
  await api.start();
  for (const [name, names] of Object.entries(DEMO_SUBJECTS)) {
    const [subject] = await api.db.insert(subjects).values({ name }).returning();
    await api.db.insert(topics).values(names.map((t) => ({ subjectId: subject!.id, name: t })));
  }
  await api.app.listen({ port, host: '127.0.0.1' });
  const http = createHttp();
  return {
    api,
    dir,
    http,
    server: `http://127.0.0.1:${port}`,
    sessions: new SessionStore(join(dir, 'config', 'waymark', 'session.json')),
    async close() {
      await http.close();
      await api.close();
      rmSync(dir, { recursive: true, force: true });
    },
  };
}
