import { english, loaders } from 'virtual:wm-messages';
import { ApiError, type Client, NetworkError } from '@shared/client/client';
import type { CallDef } from '@shared/contract/define';
import { createTranslator, type Translator } from '@shared/i18n/translator';
import { ATTEMPT_TOKEN_HEADER } from '@shared/rules/attempt-token';
import { LINK_GONE, LINK_MESSAGES, type LinkGoneCode } from '@shared/rules/test-links';
import { act, cleanup, fireEvent, render, screen, waitFor, within } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { I18nProvider } from '../core/i18n';
import { type WidgetEventMap, type WidgetHost, WidgetHostProvider } from '../embed/host';
import { attemptTokenOf, tokenForStart } from './attempt';
import { TestTaker } from './TestTaker';

const LINK = 'Lnk_0123456789abcdefgh';
const id = (n: number) => `00000000-0000-4000-8000-${String(n).padStart(12, '0')}`;

const QUESTIONS = [
  {
    _id: id(1),
    question: 'Which keyword declares a block-scoped variable?',
    questionType: 'MCQ',
    code: null,
    questionImagePath: null,
    options: [
      { _id: id(11), value: 'var' },
      { _id: id(12), value: 'let' },
    ],
  },
  {
    _id: id(2),
    question: 'Which of these are primitive types?',
    questionType: 'MSQ',
    code: null,
    questionImagePath: null,
    options: [
      { _id: id(21), value: 'string' },
      { _id: id(22), value: 'number' },
      { _id: id(23), value: 'object' },
    ],
  },
  {
    _id: id(3),
    question: 'What does this print?',
    questionType: 'CODE_MCQ',
    code: 'console.log(typeof null);',
    questionImagePath: null,
    options: [
      { _id: id(31), value: 'object' },
      { _id: id(32), value: 'null' },
    ],
  },
  {
    _id: id(4),
    question: 'Which diagram shows a LEFT JOIN?',
    questionType: 'MCQ_IMAGE',
    code: null,
    questionImagePath: '/images/questions/venn.svg',
    options: [
      { _id: id(41), value: '/images/questions/sql-join-left.svg' },
      { _id: id(42), value: '/images/questions/sql-join-inner.svg' },
    ],
  },
  {
    _id: id(5),
    question: 'Which diagrams show diverged branches?',
    questionType: 'MSQ_IMAGE',
    code: null,
    questionImagePath: null,
    options: [
      { _id: id(51), value: '/images/questions/git-diverged.svg' },
      { _id: id(52), value: '/images/questions/git-linear.svg' },
    ],
  },
  {
    _id: id(6),
    question: 'What is the value of 2 ** 10?',
    questionType: 'FILL_IN_BLANK',
    code: null,
    questionImagePath: null,
    options: [],
  },
  {
    _id: id(7),
    question: 'An old question without a type',
    questionType: '',
    code: null,
    questionImagePath: null,
    options: [
      { _id: id(71), value: 'yes' },
      { _id: id(72), value: 'no' },
    ],
  },
].map((q) => ({ ...q, points: 10, roadmapId: null, roadmapName: null }));

type Test = {
  linkId: string;
  type: string;
  status: string;
  subject: null;
  title: string;
  questions: { questions: typeof QUESTIONS };
  answers: { questionId: string; answerId?: string | string[]; answer?: string }[];
  questionCount: number;
  timeLimitMinutes: number;
  startedAt: string | null;
  deadlineAt: string | null;
  serverTime: string;
  isCompleted: boolean;
  attemptHeld: boolean;
  sandbox: boolean;
};

interface Options {
  type?: string;
  started?: boolean;
  answers?: Test['answers'];
  loadError?: ApiError;
  /** ms until the deadline once started */
  limitMs?: number;
  result?: Partial<{ score: number; certificateEligible: boolean; status: string }>;
  failSaves?: number;
  questions?: typeof QUESTIONS;
  /** With `started`: another browser holds the attempt (this one's token, if any, is not it). */
  elsewhere?: boolean;
  /** A link of a tenant's sandbox. */
  sandbox?: boolean;
  /** The link cannot be taken: answered as data when the load asks `closed=state`, else as this error. */
  closed?: ApiError;
}

const en = createTranslator('en', english);
/** A refusal of a write without the attempt's token, as the server answers it. */
const attemptRefusal = (errorCode: string) =>
  new ApiError(403, {
    statusCode: 403,
    error: 'Forbidden',
    message: en.t(LINK_MESSAGES.heldElsewhere.key),
    errorCode,
  });

function fakeServer(opts: Options = {}) {
  const calls: {
    method: string;
    path: string;
    body?: unknown;
    headers?: Record<string, string>;
    query?: Record<string, string>;
  }[] = [];
  let startedAt: string | null = opts.started ? new Date(Date.now() - 60_000).toISOString() : null;
  // the token the attempt is bound to: a started test is this browser's (its token kept, as a start keeps
  // it) unless another browser holds it
  let bound: string | null = !opts.started ? null : opts.elsewhere ? 'another-browser' : tokenForStart(LINK);
  const tokenOf = (args?: { headers?: Record<string, string> }) =>
    args?.headers?.[ATTEMPT_TOKEN_HEADER] ?? null;
  const assertHolder = (args?: { headers?: Record<string, string> }) => {
    const token = tokenOf(args);
    if (!token) throw attemptRefusal('ATTEMPT_TOKEN_REQUIRED');
    if (token !== bound) throw attemptRefusal('ATTEMPT_TOKEN_INVALID');
  };
  const limitMs = opts.limitMs ?? 5 * 60_000;
  let deadlineAt: string | null = startedAt ? new Date(Date.now() + limitMs).toISOString() : null;
  let failSaves = opts.failSaves ?? 0;
  const saved = new Map<string, unknown>();
  let verify: (() => void) | null = null;
  const questions = opts.questions ?? QUESTIONS;
  const test = (token: string | null = null): Test => ({
    linkId: LINK,
    type: opts.type ?? 'RESOURCE',
    status: 'TAKE_TEST',
    subject: null,
    title: 'Joins Between Tables',
    questions: { questions },
    answers: opts.answers ?? [],
    questionCount: questions.length,
    timeLimitMinutes: 5,
    startedAt,
    deadlineAt,
    serverTime: new Date().toISOString(),
    isCompleted: false,
    attemptHeld: startedAt !== null && token !== null && token === bound,
    sandbox: opts.sandbox ?? false,
  });
  const client = {
    options: { baseUrl: '/api', device: 'WEB_APP' },
    refresh: async () => true,
    async call(
      def: CallDef,
      args?: {
        params?: { id: string };
        query?: Record<string, string>;
        body?: Record<string, unknown>;
        headers?: Record<string, string>;
      },
    ) {
      calls.push({
        method: def.method,
        path: def.path,
        body: args?.body,
        headers: args?.headers,
        query: args?.query,
      });
      switch (def.path) {
        case '/testlink/assessment/{id}':
          if (opts.loadError) throw opts.loadError;
          if (opts.closed) {
            if (args?.query?.closed !== 'state') throw opts.closed;
            return { data: { linkId: LINK, closed: opts.closed.body, sandbox: opts.sandbox ?? false } };
          }
          return { data: test(tokenOf(args)) };
        case '/testlink/verify/{id}':
          if (startedAt) {
            // a started test moves to this token only for its learner, signed in (here: always)
            bound = tokenOf(args);
            return { data: test(bound) };
          }
          await new Promise<void>((resolve) => {
            verify = resolve;
          });
          startedAt = new Date().toISOString();
          deadlineAt = new Date(Date.now() + limitMs).toISOString();
          bound = tokenOf(args);
          return { data: test(bound) };
        case '/testlink/{id}/answer':
          assertHolder(args);
          if (failSaves > 0) {
            failSaves--;
            throw new NetworkError(new TypeError('Failed to fetch'));
          }
          saved.set(args!.body!.questionId as string, args!.body);
          return { data: { ok: true } };
        case '/testlink/activity':
          assertHolder(args);
          return { data: { ok: true } };
        case '/testlink/evaluvate/v2': {
          assertHolder(args);
          const n = questions.length;
          const score = opts.result?.score ?? 46.67;
          return {
            data: {
              linkId: LINK,
              testType: opts.type ?? 'RESOURCE',
              points: score,
              score,
              percentage: Math.round((score * 1000) / n) / 100,
              questionCount: n,
              status: opts.result?.status ?? 'GENERATE_CERTIFICATE',
              certificateEligible: opts.result?.certificateEligible ?? true,
            },
          };
        }
        default:
          throw new Error(`unexpected call ${def.path}`);
      }
    },
  };
  return {
    client: client as unknown as Client,
    calls,
    saved,
    finishVerify: () => verify?.(),
    /** The learner continued the test in another browser. */
    moveAway: () => {
      bound = 'another-browser';
    },
    of: (path: string) => calls.filter((c) => c.path === path),
  };
}

function mount(
  server: ReturnType<typeof fakeServer>,
  linkId = LINK,
  role: ReturnType<WidgetHost['role']> = null,
  translator?: Translator,
) {
  const events: { type: keyof WidgetEventMap; detail: unknown }[] = [];
  const navigated: string[] = [];
  const host: WidgetHost = {
    client: server.client,
    siteBase: '',
    emit: (type, detail) => {
      events.push({ type, detail });
      return true;
    },
    navigate: (path) => navigated.push(path),
    role: () => role,
  };
  const taker = (
    <WidgetHostProvider host={host}>
      <TestTaker linkId={linkId} />
    </WidgetHostProvider>
  );
  const view = render(translator ? <I18nProvider value={translator}>{taker}</I18nProvider> : taker);
  return {
    ...view,
    events,
    navigated,
    states: () =>
      events.filter((e) => e.type === 'wm-state').map((e) => (e.detail as { state: string }).state),
  };
}

beforeEach(() => {
  sessionStorage.clear();
  localStorage.clear();
  // happy-dom's <dialog> may lack the modal API
  const proto = HTMLDialogElement.prototype as unknown as Record<string, unknown>;
  proto.showModal ??= function (this: HTMLDialogElement) {
    this.setAttribute('open', '');
  };
  proto.close ??= function (this: HTMLDialogElement) {
    this.removeAttribute('open');
  };
});
afterEach(() => {
  cleanup();
  vi.restoreAllMocks();
});

async function startTest(server: ReturnType<typeof fakeServer>) {
  const view = mount(server);
  await screen.findByRole('heading', { name: 'Ready to Take Test?', level: 1 });
  fireEvent.click(screen.getByRole('button', { name: 'Start' }));
  expect(screen.getByRole('button', { name: 'Starting' }).getAttribute('aria-busy')).toBe('true');
  await act(async () => server.finishVerify());
  await screen.findByRole('heading', { name: /Question 1/ });
  return view;
}

/** A numbered question button. */
const tab = (n: number, answered: boolean) => `Question ${n}, ${answered ? '' : 'not '}answered`;

const next = () => fireEvent.click(screen.getByRole('button', { name: 'Next' }));

describe('the test taker', () => {
  it('shows a closed link without a failed request: asked as data, its screen drawn, wm-error with its code', async () => {
    const completed = new ApiError(410, {
      statusCode: 410,
      error: 'Gone',
      message: en.t(LINK_MESSAGES.completed.key),
      errorCode: 'TEST_COMPLETED',
    });
    const server = fakeServer({ closed: completed, sandbox: true });
    const view = mount(server);
    expect(await screen.findByRole('heading', { name: 'Test Completed', level: 1 })).toBeTruthy();
    expect(server.of('/testlink/assessment/{id}')[0]!.query).toMatchObject({ closed: 'state' });
    await waitFor(() =>
      expect(view.events.filter((e) => e.type === 'wm-error').map((e) => e.detail)).toEqual([
        { status: 410, code: 'test-completed', message: en.t(LINK_MESSAGES.completed.key) },
      ]),
    );
    // a closed link is no ready test; and a sandbox's says Sandbox on every screen
    expect(view.events.some((e) => e.type === 'wm-ready')).toBe(false);
    expect(document.querySelector('[part="sandbox"]')?.textContent).toMatch(/^Sandbox /);
  });

  it.each(['es', 'ar'] as const)("says a sandbox's mark and what it means in %s", async (locale) => {
    const t = createTranslator(locale, (await loaders[locale]()).default, english);
    mount(fakeServer({ sandbox: true }), LINK, null, t);
    await waitFor(() => expect(document.querySelector('[part="sandbox"]')).toBeTruthy());
    const mark = document.querySelector('[part="sandbox"]')!;
    expect(mark.querySelector('strong')?.textContent).toBe(t.t('sandbox.mark'));
    expect(mark.textContent).toBe(`${t.t('sandbox.mark')} ${t.t('sandbox.testNote')}`);
    expect(mark.textContent).not.toMatch(/Sandbox|credential|attempts/);
  });

  it('fires wm-ready once, when the Ready screen is drawn', async () => {
    const view = mount(fakeServer());
    await screen.findByRole('heading', { name: 'Ready to Take Test?', level: 1 });
    await waitFor(() =>
      expect(view.events.filter((e) => e.type === 'wm-ready').map((e) => e.detail)).toEqual([
        { linkId: LINK, state: 'ready' },
      ]),
    );
    expect(document.querySelector('[part="sandbox"]')).toBeNull();
  });

  it('shows Ready with its warnings, then Starting while the server starts the clock, then the first question', async () => {
    const server = fakeServer();
    const view = mount(server);
    expect(screen.getByRole('status').textContent).toMatch(/Loading the test/);
    await screen.findByRole('heading', { name: 'Ready to Take Test?' });
    expect(screen.getByText('Keep a stable internet connection.')).toBeTruthy();
    expect(screen.getByText('Do not refresh, reload or press back.')).toBeTruthy();
    expect(screen.getByText('Do not switch tab.')).toBeTruthy();
    expect(screen.getByText('7')).toBeTruthy();
    expect(screen.getByText('5 minutes')).toBeTruthy();
    fireEvent.click(screen.getByRole('button', { name: 'Start' }));
    // a second press while starting does nothing
    fireEvent.click(screen.getByRole('button', { name: 'Starting' }));
    expect(server.of('/testlink/verify/{id}')).toHaveLength(1);
    await act(async () => server.finishVerify());
    await screen.findByRole('heading', { name: /Question 1/ });
    // Start is gone: the first question has the focus
    await waitFor(() =>
      expect(document.activeElement).toBe(screen.getByRole('heading', { name: /Question 1/ })),
    );
    expect(screen.getByRole('timer').textContent).toMatch(/^[45]:\d\d$/);
    expect(view.states()).toEqual(['loading', 'ready', 'starting', 'started']);
    expect(view.events.find((e) => e.type === 'wm-start')?.detail).toMatchObject({
      linkId: LINK,
      questionCount: 7,
      resumed: false,
    });
  });

  it('applies the answer rule of every type and saves each answer as it is given', async () => {
    const server = fakeServer();
    await startTest(server);
    // MCQ: radio buttons; a new choice replaces the old one
    fireEvent.click(screen.getByRole('radio', { name: 'var' }));
    fireEvent.click(screen.getByRole('radio', { name: 'let' }));
    await waitFor(() => expect(server.saved.get(id(1))).toEqual({ questionId: id(1), answerId: id(12) }));
    expect((screen.getByRole('radio', { name: 'var' }) as HTMLInputElement).checked).toBe(false);
    // MSQ: checkboxes toggle
    next();
    expect(screen.getByText('Choose all that apply.')).toBeTruthy();
    fireEvent.click(screen.getByRole('checkbox', { name: 'string' }));
    fireEvent.click(screen.getByRole('checkbox', { name: 'number' }));
    fireEvent.click(screen.getByRole('checkbox', { name: 'string' }));
    await waitFor(() => expect(server.saved.get(id(2))).toEqual({ questionId: id(2), answerId: [id(22)] }));
    // CODE_MCQ: the code is shown in a block that can be scrolled by keyboard
    next();
    const code = screen.getByText('console.log(typeof null);').closest('pre')!;
    expect(code.textContent).toBe('console.log(typeof null);');
    expect(code.tabIndex).toBe(0);
    fireEvent.click(screen.getByRole('radio', { name: 'object' }));
    // MCQ_IMAGE: the question's image and image options
    next();
    expect(screen.getByRole('img', { name: 'Illustration for question 4' }).getAttribute('src')).toBe(
      '/images/questions/venn.svg',
    );
    fireEvent.click(screen.getByRole('radio', { name: 'Option A' }));
    // MSQ_IMAGE: image checkboxes
    next();
    fireEvent.click(screen.getByRole('checkbox', { name: 'Option A' }));
    fireEvent.click(screen.getByRole('checkbox', { name: 'Option B' }));
    // FILL_IN_BLANK: typed, saved after a pause as a number
    next();
    const box = screen.getByRole('textbox', { name: 'Your answer' });
    fireEvent.change(box, { target: { value: '10' } });
    fireEvent.change(box, { target: { value: '1024' } });
    await waitFor(() => expect(server.saved.get(id(6))).toEqual({ questionId: id(6), answer: 1024 }), {
      timeout: 2_000,
    });
    expect(
      server
        .of('/testlink/{id}/answer')
        .filter((c) => (c.body as { questionId: string }).questionId === id(6)),
    ).toHaveLength(1);
    // no type: an MCQ
    next();
    fireEvent.click(screen.getByRole('radio', { name: 'no' }));
    await waitFor(() => expect(server.saved.get(id(7))).toEqual({ questionId: id(7), answerId: id(72) }));
    expect(server.saved.get(id(5))).toEqual({ questionId: id(5), answerId: [id(51), id(52)] });
    expect(screen.getByText('All answers saved')).toBeTruthy();
    expect(screen.getByText('7 of 7 answered')).toBeTruthy();
  });

  it('navigates by number, Prev and Next, marks answered questions, and reports focus and blur', async () => {
    vi.spyOn(document, 'hasFocus').mockReturnValue(true);
    const server = fakeServer();
    await startTest(server);
    const nav = screen.getByRole('navigation', { name: 'Questions' });
    expect(
      within(nav)
        .getByRole('button', { name: tab(1, false) })
        .getAttribute('aria-current'),
    ).toBe('step');
    fireEvent.click(screen.getByRole('radio', { name: 'let' }));
    expect(within(nav).getByRole('button', { name: tab(1, true) })).toBeTruthy();
    fireEvent.click(within(nav).getByRole('button', { name: tab(6, false) }));
    expect(screen.getByRole('heading', { name: /Question 6/ })).toBe(document.activeElement);
    expect((screen.getByRole('button', { name: 'Next' }) as HTMLButtonElement).disabled).toBe(false);
    fireEvent.click(screen.getByRole('button', { name: 'Prev' }));
    expect(screen.getByRole('heading', { name: /Question 5/ })).toBeTruthy();
    act(() => {
      window.dispatchEvent(new Event('blur'));
      window.dispatchEvent(new Event('focus'));
    });
    // where the learner was when the test opened, then each change: sent in order, one at a time, each
    // with its id, its time and the question on screen
    await waitFor(() =>
      expect(server.of('/testlink/activity').map((c) => (c.body as { type: string }).type)).toEqual([
        'FOCUS',
        'BLUR',
        'FOCUS',
      ]),
    );
    const [, blur, focus] = server.of('/testlink/activity').map((c) => c.body as Record<string, unknown>);
    expect(blur).toMatchObject({ linkId: LINK, question: 5 });
    expect(typeof blur!.timeStamp).toBe('number');
    expect(blur!.sentAt as number).toBeGreaterThanOrEqual(blur!.timeStamp as number);
    expect(blur!.id).not.toBe(focus!.id);
    // a paste into an answer: its length, never its text
    fireEvent.click(within(nav).getByRole('button', { name: tab(6, false) }));
    const box = screen.getByRole('textbox', { name: 'Your answer' });
    fireEvent.paste(box, { clipboardData: { getData: () => 'pasted text' } });
    await waitFor(() => expect(server.of('/testlink/activity')).toHaveLength(4));
    expect(server.of('/testlink/activity')[3]!.body).toMatchObject({ type: 'PASTE', question: 6, chars: 11 });
    expect(JSON.stringify(server.of('/testlink/activity')[3]!.body)).not.toContain('pasted text');
  });

  it('resumes a started test on the same question with every answer kept, including unsaved ones', async () => {
    const server = fakeServer();
    const first = await startTest(server);
    fireEvent.click(screen.getByRole('radio', { name: 'let' }));
    next();
    next();
    next();
    next();
    next();
    fireEvent.change(screen.getByRole('textbox', { name: 'Your answer' }), { target: { value: 'abc' } });
    // the page goes away before the typed answer was sent
    first.unmount();
    const again = fakeServer({ started: true, answers: [{ questionId: id(1), answerId: id(12) }] });
    mount(again);
    await screen.findByRole('heading', { name: /Question 6/ });
    expect(screen.getByRole('status').textContent).toMatch(/Welcome back/);
    expect((screen.getByRole('textbox', { name: 'Your answer' }) as HTMLInputElement).value).toBe('abc');
    // the unsaved answer is sent again
    await waitFor(() => expect(again.saved.get(id(6))).toEqual({ questionId: id(6), answer: 'abc' }));
    fireEvent.click(screen.getByRole('button', { name: tab(1, true) }));
    expect((screen.getByRole('radio', { name: 'let' }) as HTMLInputElement).checked).toBe(true);
  });

  it('shows a discreet failure while an answer cannot be saved, and retries it', async () => {
    const server = fakeServer({ failSaves: 1 });
    await startTest(server);
    fireEvent.click(screen.getByRole('radio', { name: 'let' }));
    expect(await screen.findByRole('alert')).toBeTruthy();
    expect(screen.getByText(/Not saved yet/)).toBeTruthy();
    fireEvent.click(screen.getByRole('button', { name: 'Retry now' }));
    await screen.findByText('All answers saved');
    expect(server.saved.get(id(1))).toEqual({ questionId: id(1), answerId: id(12) });
  });

  it('asks before finishing, warns about unanswered questions, evaluates and shows the gauge and the feather', async () => {
    const server = fakeServer({ result: { score: 46.67, certificateEligible: true } });
    const view = await startTest(server);
    fireEvent.click(screen.getByRole('radio', { name: 'let' }));
    fireEvent.click(screen.getByRole('button', { name: 'Finish' }));
    const dialog = screen.getByRole('alertdialog', { name: 'Do you want to finish?' });
    expect(
      within(dialog).getByText(
        "It seems that you didn't answer for all the questions. Do you want to submit?",
      ),
    ).toBeTruthy();
    fireEvent.click(within(dialog).getByRole('button', { name: 'Cancel' }));
    expect(screen.queryByRole('alertdialog')).toBeNull();
    fireEvent.click(screen.getByRole('button', { name: 'Finish' }));
    fireEvent.click(within(screen.getByRole('alertdialog')).getByRole('button', { name: 'Finish' }));
    await screen.findByRole('heading', { name: 'Your Score' });
    // the focus follows: it was on the dialog's Finish, now on the result (moved by an effect, which runs
    // after the screen is drawn)
    await waitFor(() =>
      expect(document.activeElement).toBe(screen.getByRole('heading', { name: 'Your Score' })),
    );
    expect(server.of('/testlink/evaluvate/v2')[0]!.body).toEqual({
      linkId: LINK,
      answers: [{ questionId: id(1), answerId: id(12) }],
    });
    // 46.67 × 100 / 70 = 66.67 → 67
    expect(screen.getByRole('img', { name: 'Score: 67%' })).toBeTruthy();
    expect(screen.getByText('46.67 of 70 points')).toBeTruthy();
    const award = screen.getByRole('link', { name: 'View Feather' });
    expect(award.getAttribute('href')).toBe(`/feather/${LINK}`);
    fireEvent.click(award);
    expect(view.navigated).toEqual([`/feather/${LINK}`]);
    expect(view.states().slice(-2)).toEqual(['evaluating', 'score']);
    expect(view.events.find((e) => e.type === 'wm-evaluated')?.detail).toMatchObject({
      linkId: LINK,
      score: 46.67,
      certificateEligible: true,
      awardHref: `/feather/${LINK}`,
    });
  });

  it.each([
    ['SECTION', 'View Badge', 'badge'],
    ['ROADMAP', 'View Certificate', 'certificate'],
    ['SUBJECT', 'View Certificate', 'certificate'],
  ])('links a %s test to its award', async (type, label, kind) => {
    const server = fakeServer({ type });
    await startTest(server);
    fireEvent.click(screen.getByRole('button', { name: 'Finish' }));
    fireEvent.click(within(screen.getByRole('alertdialog')).getByRole('button', { name: 'Finish' }));
    expect((await screen.findByRole('link', { name: label })).getAttribute('href')).toBe(`/${kind}/${LINK}`);
  });

  it('says so when the score is not enough, and shows only the completion for a custom test', async () => {
    const server = fakeServer({
      result: { score: 10, certificateEligible: false, status: 'NO_ENOUGH_MARKS' },
    });
    await startTest(server);
    fireEvent.click(screen.getByRole('button', { name: 'Finish' }));
    fireEvent.click(within(screen.getByRole('alertdialog')).getByRole('button', { name: 'Finish' }));
    await screen.findByText('Not enough score to generate certificate');
    expect(screen.getByRole('img', { name: 'Score: 15%' })).toBeTruthy();
    expect(screen.queryByRole('link', { name: /View/ })).toBeNull();
    cleanup();
    sessionStorage.clear();

    const custom = fakeServer({ type: 'CUSTOM-TEST' });
    await startTest(custom);
    fireEvent.click(screen.getByRole('button', { name: 'Finish' }));
    fireEvent.click(within(screen.getByRole('alertdialog')).getByRole('button', { name: 'Finish' }));
    await screen.findByRole('heading', { name: 'Test Submitted' });
    expect(screen.queryByRole('img', { name: /Score/ })).toBeNull();
    expect(screen.queryByText(/Not enough score/)).toBeNull();
  });

  it('evaluates by itself when the time is up', async () => {
    const server = fakeServer({ limitMs: 1_200 });
    await startTest(server);
    fireEvent.click(screen.getByRole('radio', { name: 'let' }));
    await screen.findByRole('heading', { name: 'Your Score' }, { timeout: 3_000 });
    expect(server.of('/testlink/evaluvate/v2')[0]!.body).toEqual({
      linkId: LINK,
      answers: [{ questionId: id(1), answerId: id(12) }],
    });
  });

  it.each([
    ['LINK_EXPIRED', 410, 'Link Expired', 'expired', true],
    ['TEST_COMPLETED', 410, 'Test Completed', 'completed', true],
    ['ASSESSMENT_NOT_YET_STARTED', 403, 'Assessment Not Yet Started', 'not-yet-started', false],
  ] as const)('shows the %s screen with its message', async (errorCode, status, title, state, newLink) => {
    const sent = `The server says ${errorCode}.`;
    // a spent link says the shared statement for its code; any other refusal says the server's message
    const message = errorCode in LINK_GONE ? en.t(LINK_GONE[errorCode as LinkGoneCode]) : sent;
    const server = fakeServer({
      loadError: new ApiError(status, { statusCode: status, error: 'x', message: sent, errorCode }),
    });
    const view = mount(server);
    await screen.findByRole('heading', { name: title, level: 1 });
    expect(screen.getByText(message)).toBeTruthy();
    const home = screen.getByRole('link', { name: 'Home' });
    expect(home.getAttribute('href')).toBe('/');
    fireEvent.click(home);
    expect(view.navigated).toEqual(['/']);
    expect(Boolean(screen.queryByRole('link', { name: 'generate a new link' }))).toBe(newLink);
    if (newLink) expect(screen.getByText(/If you like to take a test,/)).toBeTruthy();
    // the state is announced after the screen is drawn (an effect): wait for it rather than race it
    await waitFor(() => expect(view.states()).toEqual(['loading', state]));
  });

  it("says the server's advice to generate a new link once, with its link", async () => {
    const message = en.t(LINK_MESSAGES.expired.key);
    mount(
      fakeServer({
        loadError: new ApiError(410, { statusCode: 410, error: 'Gone', message, errorCode: 'LINK_EXPIRED' }),
      }),
    );
    await screen.findByText('This test link has expired.');
    expect(screen.getAllByText(/If you like to take a test/)).toHaveLength(1);
    expect(screen.getByRole('link', { name: 'generate a new link' }).getAttribute('href')).toBe(
      '/assesments',
    );
  });

  it("shows 'Something Went Wrong' with the server's message for any other error, e.g. another person's link", async () => {
    const server = fakeServer({
      loadError: new ApiError(403, {
        statusCode: 403,
        error: 'Forbidden',
        message: 'This test belongs to another person.',
      }),
    });
    mount(server);
    await screen.findByRole('heading', { name: 'Something Went Wrong' });
    expect(screen.getByText('This test belongs to another person.')).toBeTruthy();
    // a refusal is not retried
    expect(screen.queryByRole('button', { name: 'Try again' })).toBeNull();
  });

  it('offers Try again when the server could not be reached, and loads again', async () => {
    let fail = true;
    const server = fakeServer();
    const call = server.client.call.bind(server.client);
    (server.client as { call: unknown }).call = async (def: CallDef, args?: unknown) => {
      if (fail && def.path === '/testlink/assessment/{id}') throw new NetworkError(new TypeError('offline'));
      return call(def as never, args as never);
    };
    mount(server);
    await screen.findByRole('heading', { name: 'Something Went Wrong' });
    expect(screen.getByText(/The server could not be reached/)).toBeTruthy();
    fail = false;
    fireEvent.click(screen.getByRole('button', { name: 'Try again' }));
    await screen.findByRole('heading', { name: 'Ready to Take Test?' });
  });

  it('shows the score again when this tab took a test that has ended since', async () => {
    sessionStorage.setItem(`waymark.test.${LINK}`, JSON.stringify({ taken: true }));
    const server = fakeServer({
      started: true,
      loadError: new ApiError(410, {
        statusCode: 410,
        error: 'Gone',
        message: 'done',
        errorCode: 'TEST_COMPLETED',
      }),
    });
    mount(server);
    await screen.findByRole('heading', { name: 'Your Score' });
    expect(server.of('/testlink/evaluvate/v2')[0]!.body).toEqual({ linkId: LINK, answers: [] });
  });

  it('makes the attempt token at Start and sends it with the start and every write, never before', async () => {
    vi.spyOn(document, 'hasFocus').mockReturnValue(true);
    const server = fakeServer();
    await startTest(server);
    fireEvent.click(screen.getByRole('radio', { name: 'let' }));
    await waitFor(() => expect(server.saved.get(id(1))).toBeTruthy());
    fireEvent.click(screen.getByRole('button', { name: 'Finish' }));
    fireEvent.click(within(screen.getByRole('alertdialog')).getByRole('button', { name: 'Finish' }));
    await screen.findByRole('heading', { name: 'Your Score' });
    const token = attemptTokenOf(LINK);
    expect(token).toMatch(/^[A-Za-z0-9_-]{43}$/);
    // the Ready page was read before there was one
    expect(server.of('/testlink/assessment/{id}')[0]!.headers).toEqual({});
    for (const path of [
      '/testlink/verify/{id}',
      '/testlink/{id}/answer',
      '/testlink/activity',
      '/testlink/evaluvate/v2',
    ]) {
      expect(server.of(path).length, path).toBeGreaterThan(0);
      for (const c of server.of(path)) expect(c.headers, path).toEqual({ [ATTEMPT_TOKEN_HEADER]: token });
    }
    // kept in this browser's local storage, so another tab of it (and a reload) writes with it too
    expect(localStorage.getItem(`waymark.attempt.${LINK}`)).toContain(token!);
  });

  it('says the test is open in another browser, saves nothing, and tells a visitor to sign in', async () => {
    const server = fakeServer({ started: true, elsewhere: true });
    const view = mount(server);
    await screen.findByRole('heading', { name: 'This test is open in another browser', level: 1 });
    expect(screen.getByText(/only that browser saves its answers/)).toBeTruthy();
    expect(screen.getByText(/sign in to Waymark in this browser/)).toBeTruthy();
    expect(screen.queryByRole('button', { name: 'Continue in this browser' })).toBeNull();
    expect(view.states()).toEqual(['loading', 'open-in-another-browser']);
    expect(server.calls.map((c) => c.path)).toEqual(['/testlink/assessment/{id}']);
  });

  it('lets the learner, signed in, continue here with a new token, the answers saved elsewhere kept', async () => {
    const server = fakeServer({
      started: true,
      elsewhere: true,
      answers: [{ questionId: id(1), answerId: id(12) }],
    });
    // this tab had an answer the server never took: the other browser's are newer, so it is not sent
    sessionStorage.setItem(
      `waymark.test.${LINK}`,
      JSON.stringify({ taken: true, unsaved: [{ questionId: id(1), answerId: id(11) }] }),
    );
    const view = mount(server, LINK, 'USER');
    await screen.findByRole('heading', { name: 'This test is open in another browser' });
    const stale = attemptTokenOf(LINK);
    fireEvent.click(screen.getByRole('button', { name: 'Continue in this browser' }));
    await screen.findByRole('heading', { name: /Question 1/ });
    const token = attemptTokenOf(LINK);
    expect(token).not.toBe(stale);
    expect(server.of('/testlink/verify/{id}')[0]!.headers).toEqual({ [ATTEMPT_TOKEN_HEADER]: token });
    expect((screen.getByRole('radio', { name: 'let' }) as HTMLInputElement).checked).toBe(true);
    expect(screen.getByRole('status').textContent).toMatch(/Welcome back/);
    fireEvent.click(screen.getByRole('radio', { name: 'var' }));
    await waitFor(() => expect(server.saved.get(id(1))).toEqual({ questionId: id(1), answerId: id(11) }));
    expect(server.of('/testlink/{id}/answer').every((c) => c.headers?.[ATTEMPT_TOKEN_HEADER] === token)).toBe(
      true,
    );
    expect(view.states()).toEqual(['loading', 'open-in-another-browser', 'started']);
  });

  it('stops saving and says so when the learner continues the test in another browser', async () => {
    const server = fakeServer();
    const view = await startTest(server);
    server.moveAway();
    fireEvent.click(screen.getByRole('radio', { name: 'let' }));
    await screen.findByRole('heading', { name: 'This test is open in another browser' });
    expect(server.saved.size).toBe(0);
    expect(view.states().at(-1)).toBe('open-in-another-browser');
  });
});
