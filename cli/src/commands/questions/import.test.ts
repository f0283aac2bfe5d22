/**
 * `waymark questions import` and `export` with LMS files as they come (issue 25), through the program's
 * own entry against a scripted server: what the person reads, the exit code, and which calls were made.
 * The real server's agreement of a dry run and an import is cli/test/lms-files.real-server.test.ts.
 */
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { PassThrough } from 'node:stream';
import { fileURLToPath } from 'node:url';
import type { Question } from '@shared/schemas/assessment';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { bankQuestion } from '../../../test/questions';
import type { Io } from '../../core/context';
import { SessionStore } from '../../core/session';
import { main } from '../../main';

const lms = (name: string) =>
  fileURLToPath(new URL(`../../../../shared/formats/fixtures/lms/${name}`, import.meta.url));
const id = (n: number) => `00000000-0000-4000-8000-${String(n).padStart(12, '0')}`;
const SUBJECTS = [
  {
    _id: id(1),
    name: 'Programming',
    topics: [
      { _id: id(11), name: 'JavaScript' },
      { _id: id(12), name: 'Git' },
    ],
  },
  { _id: id(2), name: 'Mathematics', topics: [{ _id: id(21), name: 'Algebra' }] },
];

let dir: string;
let sessions: SessionStore;
beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'waymark-questions-'));
  sessions = new SessionStore(join(dir, 'session.json'));
});
afterEach(() => rmSync(dir, { recursive: true, force: true }));

interface Call {
  what: string;
  // biome-ignore lint/suspicious/noExplicitAny: the scripted server reads whatever was sent
  body: any;
}

/**
 * A server as the import sees it: the subjects, `import/check` (nothing known), and the batch import,
 * which remembers keys as the real one does (a key sent twice is one question).
 */
function server(questions: Question[] = []) {
  const calls: Call[] = [];
  const created = new Map<string, string>();
  const handler = async (url: URL, init: RequestInit) => {
    const what = `${init.method ?? 'GET'} ${url.pathname}`;
    const body = init.body ? JSON.parse(String(init.body)) : undefined;
    calls.push({ what, body });
    switch (what) {
      case 'GET /api/admin/subject/subject-list':
        return Response.json({ data: SUBJECTS });
      case 'POST /api/admin/question/import/check':
        return Response.json({
          data: body.items.map((i: { key: string }) => ({
            key: i.key,
            status: created.has(i.key) ? 'unchanged' : 'new',
            questionId: created.get(i.key) ?? null,
          })),
        });
      case 'POST /api/admin/question/import':
        return Response.json({
          data: body.questions.map((q: { key: string }) => {
            const known = created.get(q.key);
            if (!known) created.set(q.key, id(1000 + created.size));
            return { key: q.key, status: known ? 'unchanged' : 'created', questionId: created.get(q.key) };
          }),
        });
      case 'GET /api/tenant/question/search-list':
        return Response.json({ data: questions });
      default:
        return Response.json({ message: `no ${what}` }, { status: 404 });
    }
  };
  return { calls, handler };
}

async function run(args: string[], handler: (url: URL, init: RequestInit) => Promise<Response>) {
  const stdout = new PassThrough();
  const stderr = new PassThrough();
  const stdin = new PassThrough();
  stdin.end();
  const code = await main(['node', 'waymark', ...args], {
    io: { stdin, stdout, stderr } as unknown as Io,
    env: { WAYMARK_TOKEN: 'author-token', WAYMARK_SERVER: 'https://waymark.example.com' },
    sessions,
    http: {
      fetch: (async (input: string | URL, init: RequestInit = {}) =>
        handler(new URL(String(input)), init)) as typeof globalThis.fetch,
      close: async () => {},
    },
  });
  const out = String(stdout.read() ?? '');
  return {
    code,
    err: String(stderr.read() ?? ''),
    events: out
      .split('\n')
      .filter((l) => l.startsWith('{'))
      .map((l) => JSON.parse(l)),
  };
}

describe('waymark questions import, LMS files as they come', () => {
  it('reports XML that declares an entity as a problem of the file, with its line, before asking the server', async () => {
    const s = server();
    const r = await run(['questions', 'import', lms('entity.moodle.xml')], s.handler);
    expect(r.code).toBe(7);
    expect(r.err).toContain(
      'entity.moodle.xml (Moodle XML): the file could not be read: line 3: XML: declares an external entity',
    );
    expect(r.err).not.toContain('Unexpected error');
    expect(r.events).toMatchObject([{ event: 'invalid', line: 3, field: 'XML', scope: 'file' }]);
    expect(s.calls).toEqual([]);
  });

  it('says once which questions have no subject and topic, what to pass, and the subjects to choose from', async () => {
    const s = server();
    const r = await run(['questions', 'import', lms('categories.moodle.xml')], s.handler);
    expect(r.code).toBe(7);
    expect(r.err).toContain(
      'categories.moodle.xml (Moodle XML): 1 of 3 questions has no subject and topic on this server: their categories name none of its subjects and topics: “Iota” (1); nothing was written.',
    );
    expect(r.err).toContain('--subject and --topic');
    expect(r.err).toContain('Programming: JavaScript, Git; Mathematics: Algebra');
    expect(r.err).not.toContain('Required');
    expect(r.events).toMatchObject([{ event: 'unplaced', questions: 1, total: 3 }]);
    expect(s.calls.map((c) => c.what)).toEqual(['GET /api/admin/subject/subject-list']);
  });

  it('puts every question where --subject and --topic say, over the file’s categories', async () => {
    const s = server();
    const r = await run(
      ['questions', 'import', lms('categories.moodle.xml'), '--subject', 'Mathematics', '--topic', 'Algebra'],
      s.handler,
    );
    expect(r.code, r.err).toBe(0);
    expect(r.events.at(-1)).toMatchObject({ event: 'summary', total: 3, created: 3 });
    const sent = s.calls.find((c) => c.what === 'POST /api/admin/question/import')!.body.questions;
    expect(sent.map((q: { question: { subject: string; topic: string } }) => q.question.topic)).toEqual(
      Array(3).fill(id(21)),
    );
  });

  it('names a wrong --subject once, with a guess', async () => {
    const s = server();
    const r = await run(
      ['questions', 'import', lms('categories.moodle.xml'), '--subject', 'Programing'],
      s.handler,
    );
    expect(r.code).toBe(7);
    expect(r.err).toContain(
      'waymark: --subject: no subject "Programing" on the server: did you mean "Programming"?',
    );
  });

  it('counts the same in a dry run and in the import: two copies of one question are one, and a duplicate', async () => {
    const s = server();
    const file = lms('duplicates.gift');
    const dry = await run(['questions', 'import', file, '--skip-unsupported', '--dry-run'], s.handler);
    expect(dry.code, dry.err).toBe(0);
    expect(dry.events.at(-1)).toMatchObject({ total: 3, wouldCreate: 2, duplicate: 1, skipped: 1 });
    const real = await run(['questions', 'import', file, '--skip-unsupported'], s.handler);
    expect(real.code, real.err).toBe(0);
    expect(real.events.at(-1)).toMatchObject({
      total: 3,
      created: 2,
      duplicate: 1,
      unchanged: 0,
      skipped: 1,
    });
    expect(real.events.find((e) => e.status === 'duplicate')).toMatchObject({
      line: 9,
      duplicateOf: { line: 7 },
    });
    const again = await run(['questions', 'import', file, '--skip-unsupported'], s.handler);
    expect(again.events.at(-1)).toMatchObject({ created: 0, unchanged: 2, duplicate: 1 });
  });
});

describe('waymark questions export --format aiken', () => {
  const question = (n: number, over: Partial<Question>): Question =>
    bankQuestion({
      _id: id(100 + n),
      questionId: id(100 + n),
      question: `Question ${n}?`,
      options: [
        { _id: id(200 + n), value: 'yes', isCorrect: true, points: 10 },
        { _id: id(300 + n), value: 'no', isCorrect: false, points: 0 },
      ],
      subject: id(1),
      topic: id(11),
      ...over,
    });

  it('counts the questions the file holds, and the ones left out', async () => {
    const s = server([
      question(1, {}),
      question(2, {
        questionType: 'MSQ',
        options: [
          { _id: id(401), value: 'a', isCorrect: true, points: 10 },
          { _id: id(402), value: 'b', isCorrect: true, points: 10 },
        ],
      }),
      question(3, {
        questionType: 'FILL_IN_BLANK',
        options: [{ _id: id(403), value: '4', isCorrect: true, points: 0 }],
      }),
    ]);
    const file = join(dir, 'bank.txt');
    const r = await run(['questions', 'export', '--format', 'aiken', '-o', file], s.handler);
    expect(r.code, r.err).toBe(0);
    expect(r.events).toMatchObject([{ event: 'exported', count: 1, leftOut: 2 }]);
    expect(readFileSync(file, 'utf8')).toBe('Question 1?\nA. yes\nB. no\nANSWER: A\n');
  });
});
