/**
 * The mentor and author commands against the real server: the app on a PGlite clone, listening on a free
 * port, identity from the Firebase Auth emulator (FIREBASE_AUTH_EMULATOR_HOST; npm test starts one). The
 * mentor and the learners are real accounts signed in through the real identity flow; the commands run
 * through the CLI's own entry over real HTTP, and what they did is read back from the server.
 */
import { spawn } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { readFileSync, writeFileSync } from 'node:fs';
import { createServer, request } from 'node:http';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { testLinks } from '@server/assessments/tables';
import { users } from '@server/db/schema';
import { questionOptions, questions } from '@server/questions/tables';
import { type SignedIn, type TestServer, uniqueEmail } from '@server/test/helper';
import { createClient } from '@shared/client/client';
import {
  tenantExportAwards,
  tenantExportLearningReport,
  tenantExportUsers,
} from '@shared/contract/tenant-exports';
import {
  AWARDS_REPORT,
  headersOf,
  LEARNING_REPORT,
  type Report,
  USERS_REPORT,
} from '@shared/reports/columns';
import { attemptHeaders, newAttemptToken } from '@shared/rules/attempt-token';
import type { Question } from '@shared/schemas/assessment';
import { parse as parseCsv } from 'csv-parse/sync';
import { count, eq, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Http } from '../src/core/http';
import type { SessionStore } from '../src/core/session';
import { startAuthoringServer } from './authoring-server';
import { answerBusy, runWaymark } from './harness';

const emulatorHost = process.env.FIREBASE_AUTH_EMULATOR_HOST;
const SKIP_REASON =
  'SKIPPED: needs the Firebase Auth emulator; set FIREBASE_AUTH_EMULATOR_HOST=host:port (npm test does)';
if (!emulatorHost) console.warn(`cli/test/mentor.real-server.test.ts ${SKIP_REASON}`);

const examples = fileURLToPath(new URL('../examples/', import.meta.url));

/** The next quarter hour at least `minutes` from now, as an ISO time. */
const quarterHourFrom = (minutes: number) =>
  new Date(Math.ceil((Date.now() + minutes * 60_000) / 900_000) * 900_000).toISOString();

describe.skipIf(!emulatorHost)(
  `the mentor's commands against the real server${emulatorHost ? '' : ` (${SKIP_REASON})`}`,
  () => {
    let api: TestServer;
    let server: string;
    let dir: string;
    let http: Http;
    let sessions: SessionStore;
    let mentor: SignedIn;
    let learners: SignedIn[];

    /** `waymark …` as the mentor (WAYMARK_TOKEN), output not a terminal: NDJSON. */
    const waymark = (args: string[], env: Record<string, string> = {}) =>
      runWaymark(['--server', server, ...args], {
        sessions,
        http,
        env: { WAYMARK_TOKEN: mentor.token, ...env },
      });

    /** A call to the server as someone, for reading back what the CLI did. */
    // biome-ignore lint/suspicious/noExplicitAny: tests read whatever the server answered
    async function get(path: string, token = mentor.token): Promise<any> {
      const res = await fetch(`${server}/api${path}`, { headers: { authorization: `Bearer ${token}` } });
      expect(res.status, `GET ${path}`).toBe(200);
      return ((await res.json()) as { data: unknown }).data;
    }

    let started: Awaited<ReturnType<typeof startAuthoringServer>>;

    beforeAll(async () => {
      // the subjects and topics the question editor offers
      started = await startAuthoringServer('waymark-cli-mentor-');
      ({ api, server, dir, http, sessions } = started);
      mentor = await api.signedIn('TENANT', { name: 'Mira Mentor' });
      // eleven learners: ten fill the free seats, the eleventh needs a payment
      learners = await Promise.all(
        Array.from({ length: 11 }, (_, i) =>
          api.signedIn('USER', { email: uniqueEmail(`learner${i}`), name: `Learner ${i}` }),
        ),
      );
    }, 120_000);

    afterAll(async () => {
      await started?.close();
    });

    let assessmentId = '';

    it('imports a file with every question type into an assessment, images uploaded, all on the server', async () => {
      const created = await waymark(['assessments', 'create', 'CLI: every type']);
      expect(created.code).toBe(0);
      assessmentId = created.events[0]._id;
      expect(created.events[0]).toMatchObject({ status: 'created', name: 'CLI: every type' });

      const imported = await waymark([
        'questions',
        'import',
        join(examples, 'questions.json'),
        '--assessment',
        assessmentId,
        '--concurrency',
        '3',
      ]);
      expect(imported.err).toBe('');
      expect(imported.code).toBe(0);
      const results = imported.events.filter((e) => e.event === 'question');
      expect(results.map((e) => e.status)).toEqual(Array(6).fill('created'));
      expect(imported.events.at(-1)).toMatchObject({ event: 'summary', total: 6, created: 6, failed: 0 });

      const { questions } = await get(`/tenant/assessment/${assessmentId}`);
      const byType = new Map<string, Question>(questions.map((q: Question) => [q.questionType, q]));
      expect([...byType.keys()].sort()).toEqual(
        ['CODE_MCQ', 'FILL_IN_BLANK', 'MCQ', 'MCQ_IMAGE', 'MSQ', 'MSQ_IMAGE'].sort(),
      );
      for (const q of questions as Question[]) {
        expect(q.status).toBe('PUBLISH');
        expect(q.createdBy?._id).toBe(mentor.user._id);
        expect(results.map((e) => e.id)).toContain(q._id);
      }
      const subjectList = await get('/admin/subject/subject-list');
      const programming = subjectList.find((s: { name: string }) => s.name === 'Programming');
      const mcq = byType.get('MCQ')!;
      expect(mcq.subject).toBe(programming._id);
      expect(mcq.topic).toBe(programming.topics.find((t: { name: string }) => t.name === 'JavaScript')._id);
      expect(mcq.options.map((o) => [o.value, o.isCorrect, o.points])).toEqual([
        ['const', true, 10],
        ['let', false, 0],
        ['var', false, 0],
        ['static', false, 0],
      ]);
      expect(mcq.tags).toEqual(['javascript', 'variables']);
      expect(byType.get('MSQ')!.options.filter((o) => o.isCorrect)).toHaveLength(3);
      expect(byType.get('CODE_MCQ')!.code).toContain('counters.push(() => i)');
      expect(byType.get('FILL_IN_BLANK')).toMatchObject({ points: 10, options: [{ value: '1024' }] });

      // the images were uploaded and are served: the question's and each option's
      const image = byType.get('MCQ_IMAGE')!;
      expect(image.options.map((o) => o.isCorrect)).toEqual([false, true, false]);
      const urls = [image.questionImagePath!, ...image.options.map((o) => o.value)];
      for (const url of urls) {
        expect(url).toMatch(new RegExp(`^${server}/files/imports/${mentor.user._id}/`));
        const res = await fetch(url);
        expect(res.status).toBe(200);
        expect(res.headers.get('content-type')).toBe('image/png');
      }
      const banner = Buffer.from(await (await fetch(image.questionImagePath!)).arrayBuffer());
      expect(banner.equals(readFileSync(join(examples, 'images', 'closures-banner.png')))).toBe(true);

      // and the CSV example: five more
      const csv = await waymark([
        'questions',
        'import',
        join(examples, 'questions.csv'),
        '--assessment',
        assessmentId,
      ]);
      expect(csv.code).toBe(0);
      expect(csv.events.at(-1)).toMatchObject({ created: 5, failed: 0 });
      expect((await get('/tenant/assessment/list'))[0]).toMatchObject({
        _id: assessmentId,
        questionCount: 11,
      });
    }, 60_000);

    it('writes nothing from a file with a bad row, and names every bad row and field', async () => {
      const before = (await get(`/tenant/assessment/${assessmentId}`)).questions.length;
      const mineBefore = (await get('/tenant/question/search-list?limit=50')).length;
      const file = join(dir, 'bad.csv');
      writeFileSync(
        file,
        [
          'question,type,options,points,subject,topic,explanation,tags',
          'A good one,MCQ,*yes | no,,Programming,JavaScript,Because.,js',
          'Two correct,MCQ,*a | *b,,Programming,JavaScript,Because.,js',
          'Same twice,MCQ,*a | a,,Programming,JavaScript,Because.,js',
          'Wrong topic,MCQ,*a | b,,Programming,Algebra,Because.,js',
        ].join('\n'),
      );
      const r = await waymark(['questions', 'import', file, '--assessment', assessmentId]);
      expect(r.code).toBe(7);
      expect(r.events.filter((e) => e.event === 'invalid').map((e) => [e.line, e.field, e.message])).toEqual([
        [3, 'options', 'Only one answer can be correct for this type of question'],
        [4, 'options: option 2', 'is the same as option 1; learners could not tell them apart'],
        [
          5,
          'topic',
          '"Algebra" is not a topic of Programming (it is one of Mathematics) (topics: Git, JavaScript, Python, TypeScript, Web Development)',
        ],
      ]);
      expect(r.err).toContain(`${file} (Waymark CSV): 3 problems in 3 of 4 questions; nothing was written.`);
      expect((await get(`/tenant/assessment/${assessmentId}`)).questions.length).toBe(before);
      expect((await get('/tenant/question/search-list?limit=50')).length).toBe(mineBefore);

      // an assessment that is not the mentor's: nothing is read from the file, nothing written
      const other = await waymark([
        'questions',
        'import',
        join(examples, 'questions.csv'),
        '--assessment',
        '00000000-0000-4000-8000-000000000000',
      ]);
      expect(other.code).toBe(5);
      expect(other.err).toContain('Assessment not found');
    }, 60_000);

    it('exports the questions so that importing the file again creates nothing and says unchanged', async () => {
      const file = join(dir, 'export.csv');
      const exported = await waymark(['questions', 'export', '--assessment', assessmentId, '-o', file]);
      expect(exported.code).toBe(0);
      expect(exported.events[0]).toMatchObject({ event: 'exported', count: 11, format: 'csv' });

      const copy = (await waymark(['assessments', 'create', 'CLI: the copy'])).events[0]._id;
      const mine = async () => (await get('/tenant/question/search-list?limit=50')).length;
      const before = await mine();
      const again = await waymark(['questions', 'import', file, '--assessment', copy]);
      expect(again.code, again.err).toBe(0);
      expect(again.events.at(-1)).toMatchObject({ unchanged: 11, created: 0 });
      expect(await mine()).toBe(before);

      const comparable = (q: Question) => ({
        question: q.question,
        type: q.questionType,
        code: q.code,
        image: q.questionImagePath,
        points: q.questionType === 'FILL_IN_BLANK' ? q.points : null,
        options: q.options.map((o) => [o.value, o.isCorrect]),
        subject: q.subject,
        topic: q.topic,
        explanation: q.explanation,
        tags: q.tags,
      });
      const sorted = (qs: Question[]) =>
        qs
          .map(comparable)
          .sort((a, b) => a.question.localeCompare(b.question) || a.type.localeCompare(b.type));
      const original = sorted((await get(`/tenant/assessment/${assessmentId}`)).questions);
      const copied = sorted((await get(`/tenant/assessment/${copy}`)).questions);
      expect(copied).toEqual(original);
      expect(copied).toHaveLength(11);

      // JSON too, to standard output
      const json = await waymark(['questions', 'export', '--assessment', assessmentId, '--format', 'json']);
      expect(JSON.parse(json.out)).toHaveLength(11);

      // without --assessment: the search, read page by page beyond its 50 a page
      const many = join(dir, 'many.csv');
      writeFileSync(
        many,
        [
          'question,type,options,subject,topic,explanation,tags',
          ...Array.from(
            { length: 45 },
            (_, i) => `Which number is ${i}?,MCQ,*${i} | ${i + 1},Programming,Git,It is ${i}.,numbers`,
          ),
        ].join('\n'),
      );
      const bulk = (await waymark(['assessments', 'create', 'CLI: many'])).events[0]._id;
      const imported = await waymark(['questions', 'import', many, '--assessment', bulk]);
      expect(imported.code, imported.err).toBe(0);
      const all = await waymark(['questions', 'export', '--format', 'json']);
      expect(all.code).toBe(0);
      const ids = (JSON.parse(all.out) as { id: string }[]).map((q) => q.id);
      expect(ids.length).toBeGreaterThan(50);
      expect(new Set(ids).size).toBe(ids.length);
      for (const q of (await get(`/tenant/assessment/${assessmentId}`)).questions as Question[]) {
        expect(ids).toContain(q._id);
      }
    }, 60_000);

    it('imports a Moodle GIFT bank: reports what cannot come over, imports the rest, and a re-run is unchanged', async () => {
      const file = join(dir, 'moodle.gift');
      writeFileSync(
        file,
        [
          '$CATEGORY: $course$/top/Programming/JavaScript',
          '',
          '// [id:q1] [tag:js]',
          '::one::Which keyword declares a constant?{=const ~let ~var####const cannot be reassigned.}',
          '',
          '// [id:q2] [tag:js]',
          '::two::typeof null is "object".{TRUE####A famous quirk.}',
          '',
          '::essay::Explain closures.{}',
        ].join('\n'),
      );
      const refused = await waymark(['questions', 'import', file]);
      expect(refused.code).toBe(7);
      expect(refused.events.filter((e) => e.event === 'unsupported').map((e) => [e.line, e.kind])).toEqual([
        [9, 'essay'],
      ]);
      expect(refused.err).toContain('(Moodle GIFT): 1 problem in 1 of 3 questions; nothing was written.');
      const first = await waymark(['questions', 'import', file, '--skip-unsupported']);
      expect(first.code, first.err).toBe(0);
      expect(first.events.at(-1)).toMatchObject({ event: 'summary', created: 2, skipped: 1 });
      const again = await waymark(['questions', 'import', file, '--skip-unsupported']);
      expect(again.events.at(-1)).toMatchObject({ created: 0, unchanged: 2 });
      // a Windows-1252 CSV separated by semicolons, as Excel writes it in France
      const csv = join(dir, 'excel.csv');
      writeFileSync(
        csv,
        Buffer.from(
          'question;type;options;subject;topic;explanation;tags\r\nO\xf9 est Z\xfcrich ?;MCQ;*Suisse | France;Programming;Git;Z\xfcrich est en Suisse.;g\xe9o\r\n',
          'latin1',
        ),
      );
      const excel = await waymark(['questions', 'import', csv]);
      expect(excel.code, excel.err).toBe(0);
      expect(excel.err).toContain('read as Windows-1252');
      const id = excel.events.find((e) => e.event === 'question').id;
      expect((await get(`/admin/question/${id}`)).question).toBe('Où est Zürich ?');
    }, 60_000);

    it('adds seats from a file: added, duplicate, no such learner, payment required, then already assigned', async () => {
      const ghost = uniqueEmail('ghost');
      const file = join(dir, 'roster.csv');
      const emails = learners.map((l) => l.account.email);
      writeFileSync(
        file,
        [
          'name,email',
          ...emails.slice(0, 10).map((e, i) => `Learner ${i},${e}`),
          `Again,${emails[0]!.toUpperCase()}`,
          `Ghost,${ghost}`,
        ].join('\r\n'),
      );
      const first = await waymark(['seats', 'import', file, '--concurrency', '4']);
      expect(first.code).toBe(8);
      const byLine = (r: typeof first) =>
        Object.fromEntries(r.events.filter((e) => e.event === 'seat').map((e) => [e.line, e.status]));
      expect(byLine(first)).toEqual({
        ...Object.fromEntries(emails.slice(0, 10).map((_, i) => [i + 2, 'added'])),
        12: 'duplicate',
        13: 'notFound',
      });
      // nobody has the address: it can be invited (when a seat is free: the summary counts them)
      expect(first.events.find((e) => e.line === 13)).toMatchObject({ email: ghost, mayInvite: true });
      expect(first.events.at(-1)).toMatchObject({
        event: 'summary',
        total: 12,
        added: 10,
        duplicate: 1,
        notFound: 1,
      });
      expect(first.err).toContain('1 of 12 learners could not be added');

      const seats = await waymark(['seats', 'list']);
      expect(seats.code).toBe(0);
      // a learner may not: the role guard's 403, said plainly
      const learner = await waymark(['seats', 'list'], { WAYMARK_TOKEN: learners[0]!.token });
      expect(learner.code).toBe(4);
      expect(learner.err).toContain('This needs a mentor account (role TENANT)');
      expect(seats.events.map((s) => s.learnerId.email).sort()).toEqual(emails.slice(0, 10).sort());

      // the same file again: everyone is there already; the eleventh learner needs a payment
      writeFileSync(file, [...emails.slice(0, 2), emails[10]!].join('\n'));
      const second = await waymark(['seats', 'import', file]);
      expect(second.code).toBe(8);
      expect(byLine(second)).toEqual({ 1: 'alreadyAssigned', 2: 'alreadyAssigned', 3: 'paymentRequired' });
      expect(second.events.find((e) => e.line === 3)).toMatchObject({
        outcome: 'NOT_YET_SUBSCRIBED',
        message: 'not yet subscribed',
        quantity: 11,
        seatsNeeded: 1,
      });

      // only learners who are there already: nothing to do, and that is a success
      writeFileSync(file, emails.slice(0, 3).join('\n'));
      expect((await waymark(['seats', 'import', file])).code).toBe(0);

      // a malformed line: nothing is written
      writeFileSync(file, `${emails[10]}\nnot-an-address\n`);
      const bad = await waymark(['seats', 'import', file]);
      expect(bad.code).toBe(7);
      expect(bad.events).toEqual([
        {
          event: 'invalid',
          line: 2,
          value: 'not-an-address',
          field: 'email',
          message: 'Invalid email address',
        },
      ]);
    }, 90_000);

    it('stops adding or inviting once every seat is taken, says how many to buy, and starts that checkout', async () => {
      // the ten free seats are taken (the test before); the eleventh learner and two more would need seats
      const emails = learners.map((l) => l.account.email);
      const file = join(dir, 'more.txt');
      const byLine = (r: { events: Record<string, unknown>[] }) =>
        Object.fromEntries(r.events.filter((e) => e.event === 'seat').map((e) => [e.line, e.status]));
      // the eleventh learner, then two addresses with no account: only the learner takes a seat
      writeFileSync(file, [emails[10]!, uniqueEmail('later1'), uniqueEmail('later2')].join('\n'));
      const full = await waymark(['seats', 'import', file, '--concurrency', '1']);
      expect(full.code).toBe(8);
      expect(byLine(full)).toEqual({ 1: 'paymentRequired', 2: 'notFound', 3: 'notFound' });
      expect(full.events.at(-1)).toMatchObject({
        event: 'summary',
        paymentRequired: 1,
        notFound: 2,
        notAttempted: 0,
        seatsToBuy: 1,
        checkout: 'waymark seats buy 1',
        portal: `${server}/portal/users`,
        invitable: 2,
        seatsToInvite: 2,
      });
      const plainFull = await waymark(['--no-json', 'seats', 'import', file, '--concurrency', '1']);
      expect(plainFull.out).toContain('Buy 1 seat for the 1 not added: waymark seats buy 1');
      expect(plainFull.out).toContain(
        '2 addresses have no account, so they take no seat here. To invite them: waymark seats invite',
      );
      expect(plainFull.out).toContain(
        'each invitation keeps a seat for 7 days: that takes 2 seats more than the 1 above (waymark seats buy 3 for both).',
      );
      // the invitations' line counts beyond the learners' advice, so it comes after it
      expect(plainFull.out.indexOf('Buy 1 seat')).toBeLessThan(plainFull.out.indexOf('2 addresses have'));
      const noRoom = await waymark([
        'seats',
        'invite',
        uniqueEmail('inv1'),
        uniqueEmail('inv2'),
        '--concurrency',
        '1',
      ]);
      expect(noRoom.code).toBe(8);
      expect(noRoom.events.filter((e) => e.event === 'invitation').map((e) => e.status)).toEqual([
        'cannotInvite',
      ]);
      expect(noRoom.events.at(-1)).toMatchObject({ event: 'summary', notAttempted: 1, seatsToBuy: 2 });

      // the checkout for those seats, through the portal's own call
      const buy = await waymark(['seats', 'buy', '3']);
      expect(buy.err).toBe('');
      expect(buy.code).toBe(0);
      expect(buy.events[0]).toMatchObject({ event: 'checkout', seats: 3, quantity: 13, status: 'OPEN' });
      expect(buy.events[0].url).toMatch(/^http/);
      const session = await get(`/tenant/stripe/checkout-session/${buy.events[0].id}`);
      expect(session).toMatchObject({ quantity: 13, status: 'OPEN' });
      expect((await waymark(['seats', 'buy', '0'])).code).toBe(2);
    }, 60_000);

    it("advises on a roster's dry run exactly the seats the real run then needs, with one check for the whole roster", async () => {
      // a mentor of her own, with 7 of her 10 free seats taken
      const owner = await api.signedIn('TENANT', { name: 'Rosa Roster' });
      const accounts = await api.db
        .insert(users)
        .values(
          Array.from({ length: 12 }, (_, i) => ({
            firebaseUid: `roster-${i}-${randomUUID()}`,
            email: uniqueEmail(`roster${i}`),
            role: 'USER' as const,
            name: `Roster ${i}`,
            emailVerified: true,
          })),
        )
        .returning({ email: users.email });
      const emails = accounts.map((a) => a.email);
      let requests = 0;
      const counting: Http = {
        fetch: ((...a: Parameters<typeof fetch>) => {
          requests++;
          return http.fetch(...a);
        }) as typeof fetch,
        close: async () => {},
      };
      const as = (args: string[]) =>
        runWaymark(['--server', server, ...args], {
          sessions,
          http: counting,
          env: { WAYMARK_TOKEN: owner.token },
        });
      expect((await as(['seats', 'add', ...emails.slice(0, 7)])).code).toBe(0);
      // the roster: the 7 seats, 5 learners to add, 3 addresses nobody has, a mentor's, and a repeat
      const ghosts = [uniqueEmail('ghost1'), uniqueEmail('ghost2'), uniqueEmail('ghost3')];
      const file = join(dir, 'rosa.csv');
      writeFileSync(
        file,
        ['email', ...emails, ...ghosts, mentor.account.email, emails[8]!.toUpperCase()].join('\n'),
      );

      requests = 0;
      const dry = await as(['seats', 'import', file, '--dry-run']);
      // the whole roster is one check: no call per line
      expect(requests).toBe(1);
      expect(dry.code).toBe(8);
      const statuses = (r: { events: Record<string, unknown>[] }) =>
        r.events
          .filter((e) => e.event === 'seat')
          .sort((a, b) => (a.line as number) - (b.line as number))
          .map((e) => e.status);
      expect(statuses(dry)).toEqual([
        ...Array(7).fill('alreadyAssigned'),
        ...Array(5).fill('wouldAdd'),
        ...Array(4).fill('notFound'),
        'duplicate',
      ]);
      expect(dry.events.filter((e) => e.mayInvite).map((e) => e.email)).toEqual(
        ghosts.map((g) => g.toLowerCase()),
      );
      // five learners, three free seats: two to buy; the three with no account take none, and inviting
      // them would keep three more
      expect(dry.events.at(-1)).toMatchObject({
        event: 'summary',
        wouldAdd: 5,
        freeSeats: 3,
        seatsToBuy: 2,
        checkout: 'waymark seats buy 2',
        invitable: 3,
        seatsToInvite: 3,
      });

      const real = await as(['seats', 'import', file]);
      expect(real.code).toBe(8);
      expect(statuses(real).filter((s) => s === 'added')).toHaveLength(3);
      // every line the check settled is reported; only the learners who did not fit are left
      expect(statuses(real).filter((s) => s === 'notFound' || s === 'alreadyAssigned')).toHaveLength(11);
      expect(real.events.at(-1)).toMatchObject({ event: 'summary', seatsToBuy: 2 });
      expect((real.events.at(-1).paymentRequired as number) + real.events.at(-1).notAttempted).toBe(2);

      // buying what the dry run said, and no more, seats every learner of the roster and fills every seat
      const buy = await as(['seats', 'buy', '2']);
      expect(buy.code, buy.err).toBe(0);
      const paid = await fetch(`${server}/sandbox-checkout/${buy.events[0].id}/pay`, {
        method: 'POST',
        redirect: 'manual',
      });
      expect(paid.headers.get('location')).toContain('stripe-status=success');
      const again = await as(['seats', 'import', file]);
      expect(statuses(again).filter((s) => s === 'added')).toHaveLength(2);
      expect(again.events.at(-1)).not.toHaveProperty('seatsToBuy');
      const info = await get('/tenant/subscription/info', owner.token);
      expect(info).toMatchObject({ totalQuantity: 12, seatCount: 12 });
      const after = await as(['seats', 'import', file, '--dry-run']);
      expect(after.events.at(-1)).toMatchObject({ wouldAdd: 0, seatsToBuy: 0, freeSeats: 0 });
    }, 90_000);

    it('shares an assessment with learners, checking the rules of mentor §5 first', async () => {
      const shareAs = (id: string, users: string, start: string, duration: string, ...extra: string[]) =>
        waymark([
          'assessments',
          'share',
          id,
          '--users',
          users,
          '--start',
          start,
          '--duration',
          duration,
          ...extra,
        ]);
      const start = quarterHourFrom(60);
      const [a, b] = learners;
      const shared = await shareAs(assessmentId, `${a!.account.email},${b!.user._id}`, start, '2');
      expect(shared.err).toBe('');
      expect(shared.code).toBe(0);
      expect(shared.events[0]).toMatchObject({ event: 'shared', created: 2, questions: 11, duration: 2 });
      const links = await get('/testlink/list', a!.token);
      const link = links.find((l: { linkId: string }) => shared.events[0].linkIds.includes(l.linkId));
      expect(link).toMatchObject({
        type: 'CUSTOM-TEST',
        startTime: expect.any(String),
        duration: 2,
        questionCount: 11,
      });
      expect(Date.parse(link.startTime)).toBe(Date.parse(start));

      // sharing again with someone who has a test of it: refused, naming them; --force gives another
      const again = await shareAs(
        assessmentId,
        `${a!.account.email},${learners[2]!.account.email}`,
        start,
        '2',
      );
      expect(again.code).toBe(7);
      expect(again.events).toEqual([
        expect.objectContaining({
          event: 'invalid',
          field: '--users',
          message: expect.stringContaining(
            `${a!.account.email.toLowerCase()} already has a test of this assessment`,
          ),
        }),
      ]);
      expect(again.err).toContain('add --force');
      expect(await get('/testlink/list', a!.token)).toHaveLength(links.length);
      expect(await get('/testlink/list', learners[2]!.token)).toHaveLength(0);
      const forced = await shareAs(assessmentId, a!.account.email, start, '2', '--force');
      expect(forced.code).toBe(0);
      expect(forced.events[0]).toMatchObject({ event: 'shared', created: 1 });
      const withSecond = await get('/testlink/list', a!.token);
      expect(withSecond).toHaveLength(links.length + 1);
      links.push(withSecond.find((l: { linkId: string }) => forced.events[0].linkIds.includes(l.linkId)));

      // the rules, before anything is shared
      const empty = (await waymark(['assessments', 'create', 'CLI: empty'])).events[0]._id;
      const tooFew = await shareAs(empty, a!.account.email, start, '1');
      expect(tooFew.code).toBe(7);
      expect(tooFew.err).toContain(
        'Please add at least 10 questions to the assessment before sharing it. It has 0.',
      );

      const wrongTime = await shareAs(assessmentId, a!.account.email, '2020-01-01T10:07:00Z', '0');
      expect(wrongTime.code).toBe(7);
      // off the step, too short, and in the past: every problem at once
      expect(wrongTime.events.map((e) => e.field)).toEqual(['--start', '--duration', '--start']);
      expect(wrongTime.events.at(-1).message).toContain('The start time cannot be in the past');

      const stranger = await shareAs(
        assessmentId,
        `${a!.account.email},${learners[10]!.account.email}`,
        start,
        '1',
      );
      expect(stranger.code).toBe(7);
      expect(stranger.err).toContain(
        `--users entry 2: ${learners[10]!.account.email}: is not one of your learners`,
      );
      const after = await get('/testlink/list', a!.token);
      expect(after).toHaveLength(links.length);

      const dry = await shareAs(assessmentId, a!.account.email, start, '1', '--dry-run');
      expect(dry.code).toBe(0);
      expect(dry.events[0]).toMatchObject({ status: 'wouldShare', dryRun: true });
      expect(await get('/testlink/list', a!.token)).toHaveLength(links.length);
    }, 60_000);

    it('prints the statistics of an assessment and of the bank: JSON, lines, and the portal’s CSV', async () => {
      const [a] = learners;
      // the shared window opens now, and the first learner takes the test, answering nothing
      await api.db
        .update(testLinks)
        .set({ startTime: new Date(Date.now() - 60_000) })
        .where(eq(testLinks.tenantAssessmentId, assessmentId));
      const link = (await get('/testlink/list', a!.token)).find(
        (l: { type: string; status: string }) => l.type === 'CUSTOM-TEST' && l.status === 'TAKE_TEST',
      );
      // the taker's browser holds the attempt's token, sent with the start and every write (decision 031)
      const auth = { authorization: `Bearer ${a!.token}`, ...attemptHeaders(newAttemptToken()) };
      expect(
        (await fetch(`${server}/api/testlink/verify/${link.linkId}`, { method: 'PUT', headers: auth }))
          .status,
      ).toBe(200);
      const done = await fetch(`${server}/api/testlink/evaluvate/v2`, {
        method: 'POST',
        headers: { ...auth, 'content-type': 'application/json' },
        body: JSON.stringify({ linkId: link.linkId, answers: [] }),
      });
      expect(done.status).toBe(200);

      const stats = await waymark(['assessments', 'stats', assessmentId]);
      expect(stats.code, stats.err).toBe(0);
      expect(stats.events).toHaveLength(1);
      expect(stats.events[0].summary).toMatchObject({ attempts: 1, takers: 1, smallSample: true });
      expect(stats.events[0].questions).toHaveLength(11);
      expect(stats.events[0].questions[0].figures).toMatchObject({ attempts: 1, facility: 0, flags: [] });

      // --csv is the portal's Download CSV, cell for cell
      const csv = await waymark(['assessments', 'stats', assessmentId, '--csv']);
      const file = await fetch(`${server}/api/tenant/assessment/${assessmentId}/stats/export`, {
        headers: { authorization: `Bearer ${mentor.token}` },
      });
      // (decoded keeping the byte-order mark, which text() drops)
      expect(csv.out).toBe(new TextDecoder('utf-8', { ignoreBOM: true }).decode(await file.arrayBuffer()));
      const rows = parseCsv(csv.out.replace(/^\uFEFF/, ''), { columns: true }) as Record<string, string>[];
      expect(rows).toHaveLength(11);
      expect(rows[0]).toMatchObject({ Position: '1', Attempts: '1', Facility: '0', 'Small sample': 'true' });

      const plain = await waymark(['--no-json', 'assessments', 'stats', assessmentId]);
      expect(plain.out).toContain('# attempts    1 by 1 taker (a small sample: no flags under 30)');

      const bank = await waymark(['questions', 'stats']);
      expect(bank.code, bank.err).toBe(0);
      expect(bank.events.length).toBeGreaterThanOrEqual(11);
      expect(bank.events.find((q) => q.figures.attempts === 1)).toBeTruthy();

      // the platform's tests are its staff's
      const staffOnly = await waymark(['questions', 'stats', '--platform']);
      expect(staffOnly.code).not.toBe(0);
      expect(staffOnly.err).toContain("Only the platform's staff");
    }, 60_000);

    it('removes seats only when confirmed, and invites people through the e-mail sign-in link', async () => {
      const leaving = learners[9]!;
      const unconfirmed = await waymark(['seats', 'remove', leaving.account.email]);
      expect(unconfirmed.code).toBe(2);
      expect(unconfirmed.err).toContain('Removing learners needs confirmation.');

      const unknown = await waymark([
        'seats',
        'remove',
        leaving.account.email,
        learners[10]!.account.email,
        '--yes',
      ]);
      expect(unknown.code).toBe(7);
      expect((await get('/tenant/users/search-list')).map((l: { email: string }) => l.email)).toContain(
        leaving.account.email.toLowerCase(),
      );

      const removed = await waymark(['seats', 'remove', leaving.user._id, '--yes']);
      expect(removed.code).toBe(0);
      expect(removed.events[0]).toMatchObject({
        event: 'seat',
        status: 'removed',
        email: leaving.account.email.toLowerCase(),
      });
      expect((await get('/tenant/users/search-list')).map((l: { email: string }) => l.email)).not.toContain(
        leaving.account.email.toLowerCase(),
      );

      // a seat is free again: the eleventh learner can be added, and someone new invited
      const invitee = uniqueEmail('invitee');
      const dry = await waymark(['seats', 'invite', invitee, '--dry-run']);
      expect(dry.events[0]).toMatchObject({ status: 'wouldInvite' });
      const invited = await waymark([
        'seats',
        'invite',
        invitee,
        learners[10]!.account.email,
        learners[0]!.account.email,
      ]);
      expect(invited.code).toBe(8);
      expect(
        invited.events
          .filter((e) => e.event === 'invitation')
          .map((e) => [e.email, e.status])
          .sort(),
      ).toEqual(
        [
          [invitee.toLowerCase(), 'invited'],
          [learners[10]!.account.email.toLowerCase(), 'hasAccount'],
          [learners[0]!.account.email.toLowerCase(), 'alreadyAssigned'],
        ].sort(),
      );
      const codes = await api.emulator.oobCodes(invitee);
      const link = codes.find((c) => c.requestType === 'EMAIL_SIGNIN');
      expect(link).toBeDefined();
      const continueUrl = new URL(new URL(link!.oobLink).searchParams.get('continueUrl')!);
      expect(continueUrl.searchParams.get('tenantId')).toBe(mentor.user._id);
      expect(continueUrl.searchParams.get('email')).toBe(invitee.toLowerCase());
      const invitations = await get('/tenant/users/invitations');
      expect(invitations.find((i: { email: string }) => i.email === invitee.toLowerCase())).toMatchObject({
        status: 'PENDING',
      });
    }, 60_000);
    it('downloads the reports as the portal does: CSV a spreadsheet reads, or rows as JSON', async () => {
      // run alone, the mentor has no learner yet
      if (!(await get('/tenant/users/list')).totalUserCount)
        await waymark(['seats', 'add', learners[0]!.account.email]);
      const seats = await get('/tenant/users/list?page=1&limit=15');
      expect(seats.totalUserCount).toBeGreaterThan(0);
      expect(seats.totalUserCount).toBeLessThanOrEqual(15);
      const file = join(dir, 'users.csv');
      const csv = await waymark(['reports', 'users', '-o', file]);
      expect(csv.code, csv.err).toBe(0);
      const bytes = readFileSync(file);
      expect([...bytes.subarray(0, 3)]).toEqual([0xef, 0xbb, 0xbf]);
      const rows = parseCsv(bytes, { bom: true }) as string[][];
      expect(rows[0]).toEqual(headersOf(USERS_REPORT));
      expect(
        rows
          .slice(1)
          .map((r) => r[6])
          .sort(),
      ).toEqual(seats.tenantUserList.map((s: { learnerId: { _id: string } }) => s.learnerId._id).sort());

      const to = new Date().toISOString().slice(0, 10);
      const learning = await waymark(['reports', 'learning', '--from', '2026-01-01', '--to', to, '--json']);
      expect(learning.code, learning.err).toBe(0);
      expect(learning.events).toHaveLength(seats.tenantUserList.length);
      expect(learning.events[0]).toHaveProperty('Total Spent Days', 0);

      const stdout = await waymark(['reports', 'awards', '--type', 'certificates', '--csv']);
      expect(stdout.code).toBe(0);
      expect(stdout.out.startsWith('\uFEFFName,Email,Award')).toBe(true);

      // the portal's Download CSV (the shared client's download, with the arguments each page gives it) and
      // the CLI's --csv are the same file, and --json the same rows under the same names
      const portal = createClient({
        baseUrl: `${server}/api`,
        device: 'WEB_APP',
        tokens: { get: () => ({ token: mentor.token, refreshToken: '' }), update: () => {}, clear: () => {} },
      });
      const same: [string[], () => Promise<Response>, Report][] = [
        [
          ['users'],
          () => portal.download(tenantExportUsers, { query: { searchText: undefined } }),
          USERS_REPORT,
        ],
        [['learning'], () => portal.download(tenantExportLearningReport, { query: {} }), LEARNING_REPORT],
        [
          ['awards', '--type', 'certificates'],
          () => portal.download(tenantExportAwards, { query: { certificateType: 'ROADMAP' } }),
          AWARDS_REPORT,
        ],
      ];
      for (const [args, download, report] of same) {
        const fromPortal = await (await download()).text();
        const fromCli = await waymark(['reports', ...args, '--csv']);
        expect(fromCli.code, fromCli.err).toBe(0);
        // text() drops the byte-order mark the CLI passes on as it came
        expect(fromCli.out, args[0]).toBe(`\uFEFF${fromPortal.replace(/^\uFEFF/, '')}`);
        const table = parseCsv(fromCli.out, { bom: true }) as string[][];
        expect(table[0], args[0]).toEqual(headersOf(report));
        const json = await waymark(['reports', ...args, '--json']);
        expect(
          json.events.map((e) => Object.keys(e)),
          args[0],
        ).toEqual(json.events.map(() => headersOf(report)));
        expect(
          json.events.map((e) => Object.values(e).map((v) => (v === null ? '' : String(v)))),
          args[0],
        ).toEqual(table.slice(1));
      }

      // bad input: named in the command's own terms, nothing written
      const backwards = await waymark(['reports', 'learning', '--from', to, '--to', '2026-01-01']);
      expect(backwards.code).toBe(2);
      expect(backwards.err).toContain('--to');
      const years = await waymark(['reports', 'learning', '--from', '2001-01-01', '-o', join(dir, 'x.csv')]);
      expect(years.code).toBe(7);
      expect(years.err).toMatch(/--to: /);
      expect(() => readFileSync(join(dir, 'x.csv'))).toThrow();
      expect((await waymark(['reports', 'grades'])).code).toBe(2);
    }, 60_000);

    it('waits out a busy server (503 with Retry-After) during an import and creates each question once', async () => {
      const author = await api.signedIn('TENANT', { name: 'Bea Busy' });
      const file = join(dir, 'busy.gift');
      writeFileSync(
        file,
        [
          '$CATEGORY: $course$/top/Programming/JavaScript',
          '',
          ...[1, 2, 3].flatMap((i) => [
            `// [id:busy-${i}] [tag:busy]`,
            `::b${i}::Busy question ${i}?{=yes ~no####Because.}`,
            '',
          ]),
        ].join('\n'),
      );
      // in front of the real server: the first subject list and the first batch import are turned away as
      // the server's load shedding does (server/app.ts), everything else goes through
      const shed = new Set(['GET /api/admin/subject/subject-list', 'POST /api/admin/question/import']);
      const seen: string[] = [];
      const proxy = createServer((req, res) => {
        const what = `${req.method} ${req.url?.split('?')[0]}`;
        seen.push(what);
        if (shed.delete(what)) {
          req.resume();
          answerBusy(res, '1');
          return;
        }
        const upstream = request(
          `${server}${req.url}`,
          { method: req.method, headers: req.headers },
          (answer) => {
            res.writeHead(answer.statusCode ?? 502, answer.headers);
            answer.pipe(res);
          },
        );
        req.pipe(upstream);
      });
      await new Promise<void>((r) => proxy.listen(0, '127.0.0.1', r));
      try {
        const through = `http://127.0.0.1:${(proxy.address() as { port: number }).port}`;
        const res = await runWaymark(['--server', through, 'questions', 'import', file], {
          sessions,
          http,
          env: { WAYMARK_TOKEN: author.token },
        });
        expect(res.code, res.err).toBe(0);
        expect(
          res.err.match(/The server is busy: waiting 1 s before trying again \(1 of 3\)\./g),
        ).toHaveLength(2);
        expect(res.events.at(-1)).toMatchObject({ event: 'summary', created: 3, failed: 0 });
        expect(seen.filter((w) => w === 'POST /api/admin/question/import')).toHaveLength(2);
      } finally {
        await new Promise((r) => proxy.close(r));
      }
      const [made] = await api.db
        .select({ n: count() })
        .from(questions)
        .where(eq(questions.createdBy, author.user._id));
      expect(Number(made!.n)).toBe(3);
    }, 60_000);

    it('an import killed mid-run (kill -9) and run again yields exactly the file: no duplicates, no empty drafts', async () => {
      const author = await api.signedIn('TENANT', { name: 'Kai Killed' });
      const n = 600;
      const file = join(dir, 'killed.gift');
      const lines = ['$CATEGORY: $course$/top/Programming/JavaScript', ''];
      for (let i = 1; i <= n; i++)
        lines.push(
          `// [id:killed-${i}] [tag:bulk]`,
          `::q${i}::Question ${i}: which keyword declares a constant?{=const ~let ~var####Question ${i}: const.}`,
          '',
        );
      writeFileSync(file, lines.join('\n'));
      // the real executable in its own process, killed with SIGKILL once the first questions are created
      const bin = fileURLToPath(new URL('../bin/waymark.mjs', import.meta.url));
      const child = spawn(process.execPath, [bin, '--server', server, 'questions', 'import', file], {
        env: {
          PATH: process.env.PATH ?? '',
          HOME: dir,
          XDG_CONFIG_HOME: join(dir, 'killed-config'),
          WAYMARK_TOKEN: author.token,
        },
        stdio: ['ignore', 'pipe', 'pipe'],
      });
      let createdBeforeKill = 0;
      let stderr = '';
      child.stderr.on('data', (c: Buffer) => {
        stderr += c;
      });
      const killed = await new Promise<NodeJS.Signals | null>((resolve) => {
        let pending = '';
        child.stdout.on('data', (chunk: Buffer) => {
          pending += chunk;
          const parts = pending.split('\n');
          pending = parts.pop() ?? '';
          for (const line of parts)
            if (line.includes('"status":"created"')) {
              createdBeforeKill++;
              if (createdBeforeKill === 1) child.kill('SIGKILL');
            }
        });
        child.on('exit', (_code, signal) => resolve(signal));
      });
      expect(killed, stderr).toBe('SIGKILL');
      expect(createdBeforeKill).toBeGreaterThan(0);

      const mine = eq(questions.createdBy, author.user._id);
      const counts = async () => {
        const [all] = await api.db.select({ n: count() }).from(questions).where(mine);
        const [texts] = await api.db
          .select({ n: sql<number>`count(distinct ${questions.question})::int` })
          .from(questions)
          .where(mine);
        // a draft left behind: a question without its options
        const [empty] = await api.db
          .select({ n: count() })
          .from(questions)
          .where(
            sql`${mine} and not exists (select 1 from ${questionOptions} o where o.question_id = ${questions.id})`,
          );
        return { all: Number(all!.n), distinct: Number(texts!.n), empty: Number(empty!.n) };
      };
      const afterKill = await counts();
      expect(afterKill.all).toBeLessThan(n);
      expect(afterKill.empty).toBe(0);
      expect(afterKill.distinct).toBe(afterKill.all);

      const again = await runWaymark(['--server', server, 'questions', 'import', file], {
        sessions,
        http,
        env: { WAYMARK_TOKEN: author.token },
      });
      expect(again.code, again.err).toBe(0);
      const summary = again.events.at(-1);
      expect(summary.created + summary.unchanged).toBe(n);
      expect(summary.unchanged).toBeGreaterThanOrEqual(afterKill.all);
      expect(await counts()).toEqual({ all: n, distinct: n, empty: 0 });
    }, 180_000);
  },
);
