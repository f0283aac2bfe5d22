import { PassThrough } from 'node:stream';
import { describe, expect, it } from 'vitest';
import { Output, resolveOutputMode } from './output';

describe('output mode', () => {
  it('draws with Ink at a terminal', () => {
    expect(resolveOutputMode(undefined, { isTTY: true }, {})).toBe('interactive');
  });

  it('prints JSON when output is not a terminal, without being asked', () => {
    expect(resolveOutputMode(undefined, { isTTY: false }, {})).toBe('json');
    expect(resolveOutputMode(undefined, {}, {})).toBe('json');
  });

  it('prints JSON with --json, even at a terminal', () => {
    expect(resolveOutputMode(true, { isTTY: true }, {})).toBe('json');
  });

  it('prints plain lines with --no-json when output is not a terminal, and on a dumb terminal', () => {
    expect(resolveOutputMode(false, { isTTY: false }, {})).toBe('plain');
    expect(resolveOutputMode(undefined, { isTTY: true }, { TERM: 'dumb' })).toBe('plain');
    expect(resolveOutputMode(false, { isTTY: true }, {})).toBe('interactive');
  });
});

describe('Output', () => {
  const capture = () => {
    const stdout = new PassThrough();
    const stderr = new PassThrough();
    const read = (s: PassThrough) => () => String(s.read() ?? '');
    return { streams: { stdout, stderr }, out: read(stdout), err: read(stderr) };
  };

  it('writes results to standard output, one JSON value per line', () => {
    const c = capture();
    const output = new Output('json', c.streams);
    output.emit({ event: 'code', userCode: 'ABCD-2345' });
    output.emit({ event: 'signedIn' });
    expect(c.out().split('\n')).toEqual([
      '{"event":"code","userCode":"ABCD-2345"}',
      '{"event":"signedIn"}',
      '',
    ]);
  });

  it('keeps notes and errors on standard error', () => {
    const c = capture();
    const output = new Output('json', c.streams);
    output.note('Waiting for approval…');
    output.error(['Not signed in.', 'Run `waymark login`.']);
    expect(c.out()).toBe('');
    expect(c.err()).toBe('Waiting for approval…\nwaymark: Not signed in.\nRun `waymark login`.\n');
  });
});
