/**
 * Reading a GIFT bank a window of questions at a time (what `waymark questions import` does with a large
 * file) gives exactly what reading it whole gives: the same records, problems, unsupported questions and
 * notes, with the lines of the whole file and `$CATEGORY` carried across windows.
 */
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { readQuestionBytes, readQuestionWindows } from './detect';
import { readGift, readGiftWindows } from './gift';
import { emptyResult, type ReadResult } from './record';

const fixture = readFileSync(new URL('./fixtures/moodle.gift', import.meta.url)).toString('utf8');

function joined(windows: Iterable<ReadResult>): ReadResult {
  const all = emptyResult();
  for (const w of windows) {
    all.records.push(...w.records);
    all.errors.push(...w.errors);
    all.unsupported.push(...w.unsupported);
    all.notes.push(...w.notes);
    all.total += w.total;
  }
  return all;
}

describe('readGiftWindows', () => {
  it.each([1, 2, 3, 7, 1000])('windows of %i read the fixture as readGift does', (size) => {
    const windows = [...readGiftWindows(fixture, size)];
    for (const w of windows.slice(0, -1)) expect(w.total).toBe(size);
    expect(joined(windows)).toEqual(readGift(fixture));
  });

  it('carries $CATEGORY across windows and keeps the lines of the whole file', () => {
    const text = [
      '$CATEGORY: $course$/top/Programming/JavaScript',
      '',
      '::a::First?{=yes ~no}',
      '',
      '::b::Second?{=yes ~no}',
      '',
      '::c::Broken?{=yes ~no',
      '',
      '::d::Essay?{}',
      '',
    ].join('\n');
    const windows = [...readGiftWindows(text, 1)];
    expect(windows.map((w) => w.records.map((r) => [r.line, ...(r.category ?? [])]))).toEqual([
      [[3, 'Programming', 'JavaScript']],
      [[5, 'Programming', 'JavaScript']],
      [],
      [],
      [],
    ]);
    expect(windows[2]!.errors).toEqual([
      { code: 'import.problem.giftNoClose', line: 7, field: 'question', message: 'a { without its }' },
    ]);
    expect(windows[3]!.unsupported.map((u) => [u.line, u.kind])).toEqual([[9, 'essay']]);
  });

  it('readQuestionWindows reads a file again at each pass, and other formats in one window', () => {
    const bytes = new TextEncoder().encode(fixture);
    const read = readQuestionWindows('bank.gift', bytes, 2);
    expect(read.format).toBe('gift');
    expect(joined(read.windows())).toEqual(readQuestionBytes('bank.gift', bytes).result);
    expect(joined(read.windows())).toEqual(joined(read.windows()));
    const aiken = new TextEncoder().encode('What is 2+2?\nA. 3\nB. 4\nANSWER: B\n');
    const whole = readQuestionWindows('q.txt', aiken, 1, 'aiken');
    expect([...whole.windows()]).toHaveLength(1);
  });
});
