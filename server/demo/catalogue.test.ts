/**
 * The demo catalogue and question bank: shape and coverage (every resource, section and roadmap has
 * questions; every type is present; images exist), every answer key scored by the shared rules, and
 * seeding that is idempotent and serves the catalogue and the prerequisite assessment.
 */
import { existsSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { QUESTION_TYPES } from '@shared/rules/question-types';
import { scoreQuestion } from '@shared/rules/scoring';
import { count, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { resources, roadmaps, sections, tasks } from '../catalogue/tables';
import { systemState } from '../db/schema';
import { seed } from '../db/seed';
import { questions, questionTargets } from '../questions/tables';
import { type Harness, openHarness } from '../test/harness';
import { DEMO_AUTHORS } from './authors';
import { demoOptions, demoResources, demoShortId, parseMark, roadmapKeyOf, seedCatalogue } from './catalogue';
import { DEMO_QUESTIONS, DEMO_ROADMAPS, DEMO_SUBJECT_CONTENT } from './subjects';
import type { DemoQuestion } from './types';

const publicDir = join(dirname(fileURLToPath(import.meta.url)), '../../portal/public');
const publicFile = (path: string) => join(publicDir, path);

const SINGLE = ['MCQ', 'CODE_MCQ', 'MCQ_IMAGE'];
const MULTI = ['MSQ', 'MSQ_IMAGE'];

/** How many questions aim at each target (`r:`, `s:`, `m:` keys). */
function countsByTarget() {
  const counts = new Map<string, number>();
  for (const q of DEMO_QUESTIONS) counts.set(q.at, (counts.get(q.at) ?? 0) + 1);
  return counts;
}

describe('the demo catalogue', () => {
  it('is filed by subject: each roadmap once, under the subject it names, with the questions aimed at it', () => {
    const filed = Object.entries(DEMO_SUBJECT_CONTENT).flatMap(([subject, contents]) =>
      contents.map((c) => ({ subject, ...c })),
    );
    expect(filed.map((c) => c.roadmap.key).sort()).toEqual(DEMO_ROADMAPS.map((r) => r.key).sort());
    for (const c of filed) {
      expect(c.roadmap.subject, c.roadmap.name).toBe(c.subject);
      for (const q of c.questions) expect(roadmapKeyOf(q.at), q.q).toBe(c.roadmap.key);
    }
    expect(filed.reduce((n, c) => n + c.questions.length, 0)).toBe(DEMO_QUESTIONS.length);
  });

  it('has six or more roadmaps of 3–5 sections of 2–5 resources, 3–8 tasks and 1–3 curators', () => {
    expect(DEMO_ROADMAPS.length).toBeGreaterThanOrEqual(6);
    for (const r of DEMO_ROADMAPS) {
      expect(r.sections.length, r.name).toBeGreaterThanOrEqual(3);
      expect(r.sections.length, r.name).toBeLessThanOrEqual(5);
      for (const s of r.sections) {
        expect(s.resources.length, s.name).toBeGreaterThanOrEqual(2);
        expect(s.resources.length, s.name).toBeLessThanOrEqual(5);
        expect(s.key.startsWith(`${r.key}.`), s.key).toBe(true);
      }
      expect(r.tasks.length, r.name).toBeGreaterThanOrEqual(3);
      expect(r.tasks.length, r.name).toBeLessThanOrEqual(8);
      expect(r.authors.length, r.name).toBeGreaterThanOrEqual(1);
      expect(r.authors.length, r.name).toBeLessThanOrEqual(3);
      for (const a of r.authors) expect(DEMO_AUTHORS[a], a).toBeDefined();
      for (const p of r.prerequisites) expect(DEMO_ROADMAPS.some((x) => x.key === p)).toBe(true);
      expect(existsSync(publicFile(r.image)), r.image).toBe(true);
    }
    expect(DEMO_ROADMAPS.some((r) => r.prerequisites.length > 0)).toBe(true);
    expect(new Set(DEMO_ROADMAPS.map((r) => r.language)).size).toBeGreaterThanOrEqual(2);
    expect(new Set(DEMO_ROADMAPS.map((r) => r.subject)).size).toBeGreaterThanOrEqual(2);
    for (const a of Object.values(DEMO_AUTHORS)) {
      expect(existsSync(publicFile(a.profilePath)), a.profilePath).toBe(true);
      expect(a.designation && a.shortDescription && a.longDescription).toBeTruthy();
    }
  });

  it('uses real public addresses, videos with sensible marks, and stable unique short ids', () => {
    const all = [...demoResources().values()];
    const hosts = new Set([
      'developer.mozilla.org',
      'www.youtube.com',
      'www.typescriptlang.org',
      'docs.python.org',
      'www.postgresql.org',
      'git-scm.com',
    ]);
    for (const r of all) {
      const url = new URL(r.url);
      expect(url.protocol).toBe('https:');
      expect(hosts.has(url.host), r.url).toBe(true);
      if (r.type === 'WATCH') {
        expect(url.host).toBe('www.youtube.com');
        expect(url.searchParams.get('v')).toMatch(/^[A-Za-z0-9_-]{11}$/);
        const start = parseMark(r.start)!;
        const end = parseMark(r.end)!;
        expect(end, r.title).toBeGreaterThan(start);
        expect(end - start, r.title).toBeLessThanOrEqual(2 * 3600);
      } else {
        expect(r.start ?? r.end).toBeUndefined();
      }
    }
    const shortIds = all.map((r) => demoShortId(r.key));
    expect(new Set(shortIds).size).toBe(all.length);
    for (const id of shortIds) expect(id).toMatch(/^[A-Za-z0-9]{8}$/);
    expect(demoShortId('mdn-closures')).toBe(demoShortId('mdn-closures'));
    for (const r of DEMO_ROADMAPS) {
      for (const t of r.tasks) expect(new URL(t.url).protocol).toBe('https:');
    }
  });
});

describe('the demo question bank', () => {
  it('has at least 80 questions with every type, numeric and text fill-in-blanks, and all three target kinds', () => {
    expect(DEMO_QUESTIONS.length).toBeGreaterThanOrEqual(80);
    const types = new Set(DEMO_QUESTIONS.map((q) => q.type ?? 'MCQ'));
    for (const t of QUESTION_TYPES) expect(types.has(t), t).toBe(true);
    const blanks = DEMO_QUESTIONS.filter((q) => q.type === 'FILL_IN_BLANK');
    expect(blanks.some((q) => q.accept!.every((v) => Number.isFinite(Number(v))))).toBe(true);
    expect(blanks.some((q) => q.accept!.every((v) => !Number.isFinite(Number(v))))).toBe(true);
    const kinds = new Set(DEMO_QUESTIONS.map((q) => q.at.slice(0, 2)));
    expect([...kinds].sort()).toEqual(['m:', 'r:', 's:']);
  });

  it('aims at every resource at least twice, every section at least four times, every roadmap ten times', () => {
    const counts = countsByTarget();
    for (const r of DEMO_ROADMAPS) {
      let roadmapTotal = counts.get(`m:${r.key}`) ?? 0;
      for (const s of r.sections) {
        let sectionTotal = counts.get(`s:${s.key}`) ?? 0;
        for (const res of s.resources) {
          const key = typeof res === 'string' ? res : res.key;
          const n = counts.get(`r:${key}`) ?? 0;
          expect(n, `resource ${key}`).toBeGreaterThanOrEqual(2);
          sectionTotal += n;
        }
        expect(sectionTotal, `section ${s.key}`).toBeGreaterThanOrEqual(4);
        roadmapTotal += sectionTotal;
      }
      expect(roadmapTotal, `roadmap ${r.key}`).toBeGreaterThanOrEqual(10);
    }
    // and nothing aims at a target that does not exist
    for (const q of DEMO_QUESTIONS) expect(() => roadmapKeyOf(q.at), q.q).not.toThrow();
    const sectionKeys = new Set(DEMO_ROADMAPS.flatMap((r) => r.sections.map((s) => s.key)));
    for (const q of DEMO_QUESTIONS.filter((x) => x.at.startsWith('s:'))) {
      expect(sectionKeys.has(q.at.slice(2)), q.at).toBe(true);
    }
  });

  it('is well formed: explanations, tags, code for code questions, existing images, distinct options', () => {
    for (const q of DEMO_QUESTIONS) {
      const type = q.type ?? 'MCQ';
      expect(q.q.trim(), q.q).not.toBe('');
      expect(q.why.trim().length, q.q).toBeGreaterThan(10);
      expect(q.tags.length, q.q).toBeGreaterThan(0);
      if (type === 'CODE_MCQ') expect(q.code, q.q).toBeTruthy();
      if (q.image) expect(existsSync(publicFile(q.image)), q.image).toBe(true);
      if (type === 'FILL_IN_BLANK') {
        expect(q.accept?.length, q.q).toBeGreaterThan(0);
        expect(q.right ?? q.wrong).toBeUndefined();
        continue;
      }
      const values = [...(q.right ?? []), ...(q.wrong ?? [])];
      expect(new Set(values).size, q.q).toBe(values.length);
      expect(q.wrong!.length, q.q).toBeGreaterThanOrEqual(1);
      if (SINGLE.includes(type)) {
        expect(q.right!.length, q.q).toBe(1);
        expect(values.length, q.q).toBeGreaterThanOrEqual(3);
      }
      if (MULTI.includes(type)) expect(q.right!.length, q.q).toBeGreaterThanOrEqual(2);
      if (type.endsWith('_IMAGE')) {
        for (const v of values) {
          expect(v.startsWith('/images/questions/'), v).toBe(true);
          expect(existsSync(publicFile(v)), v).toBe(true);
        }
      }
    }
  });

  it('scores its own answer key 10 and every wrong option 0 under the shared rules', () => {
    DEMO_QUESTIONS.forEach((q: DemoQuestion, index) => {
      const options = demoOptions(q, index).map((o, i) => ({ id: `o${i}`, ...o }));
      const sq = { type: q.type ?? 'MCQ', options };
      if (q.type === 'FILL_IN_BLANK') {
        for (const v of q.accept!)
          expect(scoreQuestion(sq, { answerText: ` ${v.toUpperCase()} ` }), q.q).toBe(10);
        expect(scoreQuestion(sq, { answerText: 'certainly not this' }), q.q).toBe(0);
        return;
      }
      const right = options.filter((o) => o.isCorrect).map((o) => o.id);
      expect(right.length, q.q).toBe(q.right!.length);
      expect(scoreQuestion(sq, { answerIds: right }), q.q).toBe(10);
      for (const wrong of options.filter((o) => !o.isCorrect)) {
        expect(scoreQuestion(sq, { answerIds: [wrong.id] }), q.q).toBe(0);
      }
      // the correct options are spread: not always first
    });
    const firstIsRight = DEMO_QUESTIONS.filter(
      (q, i) => q.type !== 'FILL_IN_BLANK' && demoOptions(q, i)[0]!.isCorrect,
    );
    expect(firstIsRight.length).toBeLessThan(DEMO_QUESTIONS.length / 2);
  });
});

describe('seeding the demo catalogue', () => {
  let h: Harness;

  beforeAll(async () => {
    h = await openHarness();
  }, 120_000);
  afterAll(async () => {
    await h?.close();
  });

  const totals = async () => ({
    roadmaps: Number((await h.db.select({ n: count() }).from(roadmaps))[0]!.n),
    sections: Number((await h.db.select({ n: count() }).from(sections))[0]!.n),
    resources: Number((await h.db.select({ n: count() }).from(resources))[0]!.n),
    questions: Number((await h.db.select({ n: count() }).from(questions))[0]!.n),
    targets: Number((await h.db.select({ n: count() }).from(questionTargets))[0]!.n),
    tasks: Number((await h.db.select({ n: count() }).from(tasks))[0]!.n),
  });

  it('seeds once through seed(), and again without duplicates even when its version key is lost', async () => {
    await seed(h.db, {});
    const first = await totals();
    expect(first).toEqual({
      roadmaps: DEMO_ROADMAPS.length,
      sections: DEMO_ROADMAPS.reduce((n, r) => n + r.sections.length, 0),
      resources: demoResources().size,
      questions: DEMO_QUESTIONS.length,
      targets: DEMO_QUESTIONS.length,
      tasks: DEMO_ROADMAPS.reduce((n, r) => n + r.tasks.length, 0),
    });
    expect(await seedCatalogue(h.db)).toEqual({ roadmaps: 0, questions: 0 });
    await h.db.delete(systemState).where(eq(systemState.key, 'catalogue-seed'));
    expect(await seedCatalogue(h.db)).toEqual({ roadmaps: 0, questions: 0 });
    expect(await totals()).toEqual(first);
  });

  it('a database seeded by an older version gets the tasks added since, once', async () => {
    const before = await totals();
    const [git] = await h.db
      .select({ id: roadmaps.id })
      .from(roadmaps)
      .where(eq(roadmaps.name, 'Git and GitHub'));
    const gitTasks = DEMO_ROADMAPS.find((r) => r.name === 'Git and GitHub')!.tasks;
    expect(gitTasks.length).toBeGreaterThan(5);
    // as version 1 left it: the first five tasks only
    for (const t of gitTasks.slice(5)) await h.db.delete(tasks).where(eq(tasks.actualTitle, t.title));
    await h.db
      .update(systemState)
      .set({ value: { version: 1 } })
      .where(eq(systemState.key, 'catalogue-seed'));
    await seedCatalogue(h.db);
    expect(await totals()).toEqual(before);
    const course = (await h.app.inject({ method: 'GET', url: `/api/roadmap/${git!.id}/no-auth` })).json()
      .data;
    expect(course.tasks.map((t: { actualTitle: string }) => t.actualTitle)).toEqual(
      gitTasks.map((t) => t.title),
    );
  });

  it('serves the catalogue: six roadmaps with curators, images, durations and prerequisites', async () => {
    const res = await h.app.inject({ method: 'GET', url: '/api/roadmap/list/no-auth' });
    const list = res.json().data as {
      name: string;
      language: { name: string };
      duration: number;
      totalLectures: number;
      authors: { authorId: { name: string; profilePath: string } }[];
      prerequisites: { name: string }[];
      imgPath: string;
    }[];
    expect(list.map((r) => r.name)).toEqual(
      [...DEMO_ROADMAPS.map((r) => r.name)].sort((a, b) => (a < b ? -1 : 1)),
    );
    const jsf = list.find((r) => r.name === 'JavaScript Foundations')!;
    // 2:20 of the 100-second video and the first 30 minutes of the course
    expect(jsf).toMatchObject({
      duration: 140 + 1800,
      totalLectures: 11,
      imgPath: '/images/roadmaps/javascript-foundations.svg',
    });
    expect(jsf.authors.map((a) => a.authorId.name)).toEqual(['Meera Iyer', 'Kabir Shah']);
    const dom = list.find((r) => r.name === 'Modern JavaScript and the DOM')!;
    expect(dom.prerequisites.map((p) => p.name)).toEqual(['JavaScript Foundations']);
    expect(list.find((r) => r.name === 'Python para principiantes')!.language.name).toBe('Spanish');
  });

  it('a shared resource names both roadmaps, and its short link resolves', async () => {
    const list = (await h.app.inject({ method: 'GET', url: '/api/roadmap/list/no-auth' })).json().data;
    const ts = list.find((r: { name: string }) => r.name === 'TypeScript for JavaScript Developers');
    const detail = (await h.app.inject({ method: 'GET', url: `/api/roadmap/${ts._id}/no-auth` })).json().data;
    const modules = detail.sections
      .flatMap((s: { resources: { actualTitle: string }[] }) => s.resources)
      .find((r: { actualTitle: string }) => r.actualTitle === 'JavaScript modules');
    expect(modules.belongToRoadmap.map((b: { name: string }) => b.name)).toEqual([
      'Modern JavaScript and the DOM',
      'TypeScript for JavaScript Developers',
    ]);
    const link = await h.app.inject({
      method: 'GET',
      url: `/api/resource/${demoShortId('mdn-modules')}?device=WEB`,
    });
    expect(link.json().data.url).toBe(
      'https://developer.mozilla.org/en-US/docs/Web/JavaScript/Guide/Modules',
    );
  });

  it('the prerequisite assessment of a demo roadmap draws five questions of JavaScript Foundations', async () => {
    const list = (await h.app.inject({ method: 'GET', url: '/api/roadmap/list/no-auth' })).json().data;
    const dom = list.find((r: { name: string }) => r.name === 'Modern JavaScript and the DOM');
    const gen = await h.app.inject({
      method: 'POST',
      url: `/api/roadmap/generate-initial-assessment-questions/${dom._id}`,
    });
    expect(gen.statusCode).toBe(200);
    const taken = (
      await h.app.inject({ method: 'GET', url: `/api/roadmap/assessment/${gen.json().data.linkId}` })
    ).json().data;
    expect(taken.questions).toHaveLength(5);
    for (const q of taken.questions) expect(q.roadmapName).toBe('JavaScript Foundations');
  });
});
