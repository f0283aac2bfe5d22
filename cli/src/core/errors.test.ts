import { ApiError, NetworkError } from '@shared/client/client';
import { CommanderError } from 'commander';
import { describe, expect, it } from 'vitest';
import { CancelledError, CliError, describeError, ExitCode, exitCodeOf } from './errors';

const api = (status: number, message = 'Server says no', extra: Record<string, unknown> = {}) =>
  new ApiError(status, { statusCode: status, error: 'Error', message, ...extra });

describe('exit codes scripts can rely on', () => {
  it.each([
    [400, ExitCode.badInput],
    [401, ExitCode.notSignedIn],
    [403, ExitCode.forbidden],
    [404, ExitCode.notFound],
    [409, ExitCode.badInput],
    [500, ExitCode.unexpected],
    [503, ExitCode.unexpected],
  ])('the server answering %i exits with %i', (status, code) => {
    expect(exitCodeOf(api(status))).toBe(code);
  });

  it('an unreachable server exits with 6', () => {
    expect(exitCodeOf(new NetworkError(new Error('connect ECONNREFUSED')))).toBe(6);
  });

  it('a usage error from commander exits with 2; help and version with 0', () => {
    expect(exitCodeOf(new CommanderError(1, 'commander.unknownOption', "error: unknown option '--x'"))).toBe(
      2,
    );
    expect(exitCodeOf(new CommanderError(0, 'commander.helpDisplayed', '(outputHelp)'))).toBe(0);
    expect(exitCodeOf(new CommanderError(0, 'commander.version', '0.1.0'))).toBe(0);
  });

  it('the CLI’s own failures carry their code; Ctrl+C is 130; anything else is 1', () => {
    expect(exitCodeOf(new CliError('Not signed in.', ExitCode.notSignedIn))).toBe(3);
    expect(exitCodeOf(new CancelledError())).toBe(130);
    expect(exitCodeOf(new DOMException('aborted', 'AbortError'))).toBe(130);
    expect(exitCodeOf(new TypeError('x is undefined'))).toBe(1);
  });
});

describe('error messages', () => {
  it('print the server’s message and every invalid field it named', () => {
    const err = api(400, 'email: Invalid email address', {
      field: 'email',
      fields: { email: 'Invalid email address', name: 'is required' },
    });
    expect(describeError(err)).toEqual(['email: Invalid email address', '  name: is required']);
  });

  it('name the field when the server’s message does not', () => {
    const err = api(400, 'cannot be used: only https addresses are read', { field: 'url' });
    expect(describeError(err)).toEqual(['url: cannot be used: only https addresses are read']);
  });

  it('say why the server could not be reached', () => {
    const cause = new TypeError('fetch failed', { cause: new Error('connect ECONNREFUSED 127.0.0.1:1') });
    expect(describeError(new NetworkError(cause))[0]).toMatch(
      /could not be reached.*\(connect ECONNREFUSED 127\.0\.0\.1:1\)/,
    );
  });

  it('add the hint of the CLI’s own errors, and hide stack traces unless debugging', () => {
    expect(describeError(new CliError('Not signed in.', 3, { hint: 'Run `waymark login`.' }))).toEqual([
      'Not signed in.',
      'Run `waymark login`.',
    ]);
    expect(describeError(new Error('boom'))).toEqual(['Unexpected error: boom']);
    expect(describeError(new Error('boom'), { debug: true })[0]).toContain('errors.test.ts');
  });
});
