/** Creating one checked question: the calls it makes in order, and the draft removed when a step fails. */
import { statSync } from 'node:fs';
import { createClient } from '@shared/client/client';
import { describe, expect, it } from 'vitest';
import type { PreparedQuestion } from './question-file';
import { createCheckedQuestion } from './questions';

const QID = '41111111-1111-4111-8111-111111111111';
const AID = '51111111-1111-4111-8111-111111111111';

const prepared: PreparedQuestion = {
  line: 2,
  input: {
    question: 'Which?',
    questionType: 'MCQ_IMAGE',
    code: null,
    questionImagePath: null,
    subject: '11111111-1111-4111-8111-111111111111',
    topic: '21111111-1111-4111-8111-111111111111',
    options: [
      { value: 'a.png', isCorrect: true, points: 10 },
      { value: 'https://cdn.example.com/b.png', isCorrect: false, points: 0 },
    ],
    explanation: [{ type: 'TEXT', value: 'Because.' }],
    tags: ['x'],
  },
  image: null,
  optionImages: [
    {
      kind: 'file',
      path: new URL('../../examples/images/circle.png', import.meta.url).pathname,
      fileType: 'png',
    },
    { kind: 'url', url: 'https://cdn.example.com/b.png' },
  ],
  subjectName: 'Design',
  topicName: 'UI Design',
};

function fakeServer(failAt: string | null) {
  const calls: string[] = [];
  const bodies: Record<string, unknown> = {};
  const fetch = (async (input: string | URL, init: RequestInit = {}) => {
    const url = new URL(String(input));
    const key = `${init.method ?? 'GET'} ${url.pathname}`;
    calls.push(key);
    if (typeof init.body === 'string') bodies[key] = JSON.parse(init.body);
    if (key === failAt) {
      return Response.json({ statusCode: 400, error: 'Bad Request', message: 'No.' }, { status: 400 });
    }
    if (key === 'POST /api/admin/question/create') return Response.json({ data: { questionId: QID } });
    if (key === 'POST /api/admin/question/signed-url')
      return Response.json({
        data: {
          url: 'https://files.example.com/upload?sig=1',
          path: 'https://files.example.com/q/a.png',
          expiresAt: '',
        },
      });
    if (key === 'PUT /upload') return Response.json({ data: {} });
    return Response.json({ data: { _id: QID, ok: true } });
  }) as typeof globalThis.fetch;
  const client = createClient({
    baseUrl: 'https://waymark.example.com/api',
    device: 'CLI',
    fetch,
    tokens: { get: () => ({ token: 't', refreshToken: 'r' }), update: () => {}, clear: () => {} },
  });
  return { client, fetch, calls, bodies };
}

describe('creating a checked question', () => {
  it('creates the draft in the assessment, uploads and records the images, then saves the whole question', async () => {
    const s = fakeServer(null);
    await createCheckedQuestion({ client: s.client, fetch: s.fetch }, prepared, AID);
    expect(s.calls).toEqual([
      'POST /api/admin/question/create',
      'POST /api/admin/question/signed-url',
      'PUT /upload',
      `PUT /api/admin/question/update-imagepath/${QID}`,
      `PUT /api/admin/question/${QID}`,
    ]);
    expect(s.bodies['POST /api/admin/question/create']).toEqual({
      questionType: 'MCQ_IMAGE',
      assessmentId: AID,
    });
    expect(s.bodies['POST /api/admin/question/signed-url']).toEqual({
      type: 'option',
      questionId: QID,
      fileType: 'png',
      // the file's exact size, signed into the address
      size: statSync(new URL('../../examples/images/circle.png', import.meta.url)).size,
      optionIndex: 0,
    });
    const saved = s.bodies[`PUT /api/admin/question/${QID}`] as { options: { value: string }[] };
    expect(saved.options.map((o) => o.value)).toEqual([
      'https://files.example.com/q/a.png',
      'https://cdn.example.com/b.png',
    ]);
  });

  it('deletes the draft again when a later step fails, and passes the failure on', async () => {
    const s = fakeServer(`PUT /api/admin/question/${QID}`);
    await expect(createCheckedQuestion({ client: s.client, fetch: s.fetch }, prepared)).rejects.toMatchObject(
      { status: 400 },
    );
    expect(s.calls.at(-1)).toBe(`DELETE /api/admin/question/${QID}`);

    const upload = fakeServer('PUT /upload');
    await expect(
      createCheckedQuestion({ client: upload.client, fetch: upload.fetch }, prepared),
    ).rejects.toThrow(/was refused: No\./);
    expect(upload.calls.at(-1)).toBe(`DELETE /api/admin/question/${QID}`);
  });
});
