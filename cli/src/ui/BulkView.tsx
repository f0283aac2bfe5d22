/**
 * Bulk work at a terminal (importing questions, adding seats): one line per finished item that never
 * changes (Ink's <Static>, printed once and scrolled away), a live progress line under them, and a summary
 * at the end. BulkView draws a state; BulkApp runs the work, collects the lines, lets Ctrl+C cancel, and
 * exits once the summary is on screen.
 */
import { Box, Static, Text } from 'ink';
import { useEffect, useRef, useState } from 'react';
import { type Outcome, useCtrlC, useExitWhenDone } from './render';
import { Spinner } from './Spinner';

export type Tone = 'ok' | 'warn' | 'fail' | 'info';

/** One finished item. */
export interface ItemLine {
  key: string;
  tone: Tone;
  /** What happened, in a word or two: created, added, already assigned, failed… */
  word: string;
  text: string;
  /** Shown only in plain output, as a last tab-separated field (an id: too long for a terminal line). */
  extra?: string;
  /** Further lines (the server's message, each invalid field). */
  detail?: readonly string[];
}

export interface Progress {
  label: string;
  done: number;
  total: number;
  failed: number;
}

export interface Summary {
  tone: Tone;
  lines: readonly string[];
}

const SYMBOL: Record<Tone, { char: string; color: string }> = {
  ok: { char: '✔', color: 'green' },
  warn: { char: '⚠', color: 'yellow' },
  fail: { char: '✖', color: 'red' },
  info: { char: '•', color: 'cyan' },
};

export function ItemLineView({ line, wordWidth }: { line: ItemLine; wordWidth: number }) {
  const symbol = SYMBOL[line.tone];
  return (
    <Box flexDirection="column">
      <Text>
        <Text color={symbol.color}>{symbol.char}</Text> <Text bold>{line.word.padEnd(wordWidth)}</Text>{' '}
        {line.text}
      </Text>
      {line.detail?.map((d, i) => (
        // biome-ignore lint/suspicious/noArrayIndexKey: the detail lines never change or move
        <Text key={i} dimColor>
          {'    '}
          {d}
        </Text>
      ))}
    </Box>
  );
}

const BAR = 20;
export function progressBar(done: number, total: number): string {
  const filled = total > 0 ? Math.round((done / total) * BAR) : 0;
  return `${'█'.repeat(filled)}${'░'.repeat(BAR - filled)}`;
}

export function ProgressLine({ progress }: { progress: Progress }) {
  const { label, done, total, failed } = progress;
  return (
    <Spinner
      label={`${label} ${progressBar(done, total)} ${done}/${total}${failed ? ` · ${failed} failed` : ''}`}
    />
  );
}

export function SummaryView({ summary }: { summary: Summary }) {
  const symbol = SYMBOL[summary.tone];
  const [first, ...rest] = summary.lines;
  return (
    <Box flexDirection="column" marginTop={1}>
      <Text>
        <Text color={symbol.color}>{symbol.char}</Text> <Text bold>{first}</Text>
      </Text>
      {rest.map((l, i) => (
        // biome-ignore lint/suspicious/noArrayIndexKey: the summary is drawn once
        <Text key={i}>
          {'  '}
          {l}
        </Text>
      ))}
    </Box>
  );
}

export interface BulkState {
  lines: readonly ItemLine[];
  progress: Progress | null;
  summary: Summary | null;
  /** Width of the word column, so the lines align. */
  wordWidth: number;
}

export function BulkView({ state }: { state: BulkState }) {
  return (
    <>
      <Static items={state.lines as ItemLine[]}>
        {(line) => <ItemLineView key={line.key} line={line} wordWidth={state.wordWidth} />}
      </Static>
      {state.summary ? (
        <SummaryView summary={state.summary} />
      ) : (
        state.progress && <ProgressLine progress={state.progress} />
      )}
    </>
  );
}

/** What the work reports to the view as it goes. */
export interface BulkReporter {
  item(line: ItemLine): void;
  progress(progress: Progress): void;
}

export interface BulkAppProps {
  initial: Progress;
  wordWidth: number;
  /** Does the work; resolves with the summary to show. Rejecting shows the lines so far and exits with it. */
  run: (report: BulkReporter) => Promise<Summary>;
  /** Ctrl+C: stop starting new items (run then settles). */
  onCancel: () => void;
}

/**
 * How often finished lines and progress reach the view: the lines of a frame are drawn together (Ink draws
 * at most 30 frames a second anyway), where a state update per line cost a render per line — most of a
 * 10,000-line roster's time at a terminal once its dry run no longer waited on the server.
 */
export const FRAME_MS = 32;

export function BulkApp({ initial, wordWidth, run, onCancel }: BulkAppProps) {
  const [state, setState] = useState<BulkState>({ lines: [], progress: initial, summary: null, wordWidth });
  const [outcome, setOutcome] = useState<Outcome>(null);
  const cancelled = useRef(false);

  // biome-ignore lint/correctness/useExhaustiveDependencies: the work runs once, when the view mounts
  useEffect(() => {
    let live = true;
    let lines: ItemLine[] = [];
    let progress: Progress | null = null;
    let timer: ReturnType<typeof setTimeout> | null = null;
    /** Everything reported since the last frame, in one state update. */
    const flush = () => {
      if (timer) clearTimeout(timer);
      timer = null;
      const [newLines, newProgress] = [lines, progress];
      lines = [];
      progress = null;
      if (!live || (!newLines.length && !newProgress)) return;
      setState((s) => ({
        ...s,
        lines: newLines.length ? [...s.lines, ...newLines] : s.lines,
        progress: newProgress ?? s.progress,
      }));
    };
    const soon = () => {
      timer ??= setTimeout(flush, FRAME_MS);
    };
    const reporter: BulkReporter = {
      item: (line) => {
        lines.push(line);
        soon();
      },
      progress: (p) => {
        progress = p;
        soon();
      },
    };
    run(reporter).then(
      (summary) => {
        flush();
        if (!live) return;
        setState((s) => ({ ...s, summary }));
        setOutcome({ ok: true });
      },
      (error: unknown) => {
        flush();
        if (!live) return;
        setState((s) => ({ ...s, progress: null }));
        setOutcome({ error });
      },
    );
    return () => {
      live = false;
      if (timer) clearTimeout(timer);
    };
  }, []);

  useExitWhenDone(outcome);
  useCtrlC(() => {
    if (cancelled.current) return;
    cancelled.current = true;
    setState((s) => (s.progress ? { ...s, progress: { ...s.progress, label: 'Stopping…' } } : s));
    onCancel();
  }, outcome === null);

  return <BulkView state={state} />;
}
