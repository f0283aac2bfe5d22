import { render } from 'ink-testing-library';
import { describe, expect, it, vi } from 'vitest';
import { BulkApp, type BulkReporter, BulkView, type ItemLine, progressBar } from './BulkView';

const line = (key: string, over: Partial<ItemLine> = {}): ItemLine => ({
  key,
  tone: 'ok',
  word: 'added',
  text: `${key}@example.com`,
  ...over,
});

describe('the bulk view', () => {
  it('shows one line per finished item, aligned, with its detail, under them the live progress', () => {
    const frame = render(
      <BulkView
        state={{
          wordWidth: 16,
          lines: [
            line('asha'),
            line('ghost', { tone: 'fail', word: 'no such learner', detail: ['Email Not Found'] }),
            line('ravi', { tone: 'warn', word: 'already assigned' }),
          ],
          progress: { label: 'Adding learners', done: 3, total: 12, failed: 1 },
          summary: null,
        }}
      />,
    ).lastFrame()!;
    const rows = frame.split('\n');
    expect(rows.slice(0, 4)).toEqual([
      '✔ added            asha@example.com',
      '✖ no such learner  ghost@example.com',
      '    Email Not Found',
      '⚠ already assigned ravi@example.com',
    ]);
    expect(rows[4]).toMatch(/^. Adding learners █████░{15} 3\/12 · 1 failed$/);
  });

  it('replaces the progress line with the summary at the end', () => {
    const frame = render(
      <BulkView
        state={{
          wordWidth: 7,
          lines: [line('asha')],
          progress: { label: 'Adding learners', done: 1, total: 1, failed: 0 },
          summary: { tone: 'ok', lines: ['Added 1 of 1.', 'Nothing else to do.'] },
        }}
      />,
    ).lastFrame()!;
    expect(frame).not.toContain('Adding learners');
    expect(frame).toContain('✔ Added 1 of 1.');
    expect(frame).toContain('  Nothing else to do.');
  });

  it('fills the bar in proportion', () => {
    expect(progressBar(0, 10)).toBe('░'.repeat(20));
    expect(progressBar(5, 10)).toBe(`${'█'.repeat(10)}${'░'.repeat(10)}`);
    expect(progressBar(3, 3)).toBe('█'.repeat(20));
    expect(progressBar(0, 0)).toBe('░'.repeat(20));
  });
});

describe('the bulk app', () => {
  it('adds a line per item as they finish, then shows the summary and keeps it as the last frame', async () => {
    let report: BulkReporter | null = null;
    let finish: () => void = () => {};
    const { lastFrame } = render(
      <BulkApp
        initial={{ label: 'Creating questions', done: 0, total: 2, failed: 0 }}
        wordWidth={7}
        onCancel={() => {}}
        run={async (r) => {
          report = r;
          await new Promise<void>((resolve) => {
            finish = resolve;
          });
          return { tone: 'ok', lines: ['Created 2 of 2 questions.'] };
        }}
      />,
    );
    await vi.waitFor(() => expect(lastFrame()).toContain('Creating questions ░'));
    report!.item(line('q1', { word: 'created', text: 'line 2  MCQ' }));
    report!.progress({ label: 'Creating questions', done: 1, total: 2, failed: 0 });
    await vi.waitFor(() => expect(lastFrame()).toContain('✔ created line 2  MCQ'));
    expect(lastFrame()).toContain('1/2');
    report!.item(line('q2', { word: 'created', text: 'line 9  MSQ' }));
    finish();
    await vi.waitFor(() => expect(lastFrame()).toContain('✔ Created 2 of 2 questions.'));
    expect(lastFrame()).toContain('✔ created line 9  MSQ');
    expect(lastFrame()).not.toContain('Creating questions █');
  });

  it('draws the lines that finish within a frame together, not a render each (10,000 of them at a terminal)', async () => {
    const { frames, lastFrame } = render(
      <BulkApp
        initial={{ label: 'Checking learners', done: 0, total: 300, failed: 0 }}
        wordWidth={9}
        onCancel={() => {}}
        run={async (r) => {
          // as answers arrive: each in a task of its own
          for (let i = 1; i <= 300; i++) {
            await new Promise((resolve) => setImmediate(resolve));
            r.item(line(`learner${i}`, { word: 'would add' }));
            r.progress({ label: 'Checking learners', done: i, total: 300, failed: 0 });
          }
          return { tone: 'info', lines: ['300 of 300 would be added.'] };
        }}
      />,
    );
    await vi.waitFor(() => expect(lastFrame()).toContain('300 of 300 would be added.'));
    const drawn = frames.join('\n');
    for (const i of [1, 150, 300]) expect(drawn).toContain(`would add learner${i}@example.com`);
    expect(frames.length).toBeLessThan(30);
  });

  it('asks the work to stop on Ctrl+C, and says it is stopping', async () => {
    let cancelled = 0;
    const { lastFrame, stdin } = render(
      <BulkApp
        initial={{ label: 'Adding learners', done: 0, total: 5, failed: 0 }}
        wordWidth={5}
        onCancel={() => {
          cancelled++;
        }}
        run={() => new Promise(() => {})}
      />,
    );
    await vi.waitFor(() => expect(lastFrame()).toContain('Adding learners'));
    stdin.write('\u0003');
    await vi.waitFor(() => expect(lastFrame()).toContain('Stopping…'));
    stdin.write('\u0003');
    expect(cancelled).toBe(1);
  });
});
