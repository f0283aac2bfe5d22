import { render } from 'ink-testing-library';
import { describe, expect, it, vi } from 'vitest';
import { Done, TaskApp } from './TaskApp';

describe('a task at the terminal', () => {
  it('shows what it is doing, then the result as its last frame', async () => {
    let finish: () => void = () => {};
    const { lastFrame } = render(
      <TaskApp
        label="Sharing the assessment…"
        onCancel={() => {}}
        run={async () => {
          await new Promise<void>((r) => {
            finish = r;
          });
          return <Done>Shared “Week 1” with 2 learners.</Done>;
        }}
      />,
    );
    expect(lastFrame()).toContain('Sharing the assessment…');
    finish();
    await vi.waitFor(() => expect(lastFrame()).toBe('✔ Shared “Week 1” with 2 learners.'));
  });

  it('shows the failure line when the work fails', async () => {
    const { lastFrame } = render(
      <TaskApp
        label="Creating…"
        failure="Not created."
        onCancel={() => {}}
        run={() => Promise.reject(new Error('boom'))}
      />,
    );
    await vi.waitFor(() => expect(lastFrame()).toBe('✖ Not created.'));
  });

  it('cancels on Ctrl+C', async () => {
    const onCancel = vi.fn();
    const { stdin, lastFrame } = render(
      <TaskApp label="Waiting…" onCancel={onCancel} run={() => new Promise(() => {})} />,
    );
    await vi.waitFor(() => expect(lastFrame()).toContain('Waiting…'));
    stdin.write('\u0003');
    expect(onCancel).toHaveBeenCalledTimes(1);
  });
});
