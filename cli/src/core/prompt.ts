/**
 * Reading a secret: typed at a terminal without echo, or read from standard input when it is piped
 * (`printf '%s' "$PASSWORD" | waymark login --email …`).
 */
import type { Writable } from 'node:stream';
import { CancelledError } from './errors';

export interface SecretInput {
  stdin: NodeJS.ReadableStream & { isTTY?: boolean; setRawMode?: (raw: boolean) => unknown };
  /** Where the question is asked: standard error, so standard output stays clean for results. */
  stderr: Writable;
}

/** Prompts at a terminal; nothing typed is shown. Ctrl+C cancels; Backspace deletes. */
export function promptSecret(question: string, io: SecretInput): Promise<string> {
  const { stdin, stderr } = io;
  stderr.write(question);
  return new Promise((resolve, reject) => {
    let value = '';
    const finish = (error?: Error) => {
      stdin.off('data', onData);
      stdin.setRawMode?.(false);
      stdin.pause();
      stderr.write('\n');
      if (error) reject(error);
      else resolve(value);
    };
    const onData = (chunk: Buffer | string) => {
      for (const ch of String(chunk)) {
        if (ch === '\r' || ch === '\n') return finish();
        if (ch === '\u0003') return finish(new CancelledError('Sign-in cancelled.'));
        if (ch === '\u0004') return value ? finish() : finish(new CancelledError('Sign-in cancelled.'));
        if (ch === '\u007f' || ch === '\b') value = value.slice(0, -1);
        else if (ch >= ' ') value += ch;
      }
    };
    stdin.setRawMode?.(true);
    stdin.setEncoding?.('utf8');
    stdin.on('data', onData);
    stdin.resume();
  });
}

/** The first line of piped standard input (without its line ending). */
export async function readFirstLine(stdin: NodeJS.ReadableStream): Promise<string> {
  let text = '';
  for await (const chunk of stdin) {
    text += String(chunk);
    if (text.includes('\n')) break;
  }
  return text.split(/\r?\n/)[0] ?? '';
}

/**
 * Asks a yes-or-no question at a terminal (on standard error); only y or yes agrees. Ctrl+C or the end of
 * input cancels.
 */
export function confirm(question: string, io: SecretInput): Promise<boolean> {
  const { stdin, stderr } = io;
  stderr.write(`${question} [y/N] `);
  return new Promise((resolve, reject) => {
    let answer = '';
    const finish = (result: boolean | Error) => {
      stdin.off('data', onData);
      stdin.off('end', onEnd);
      stdin.setRawMode?.(false);
      stdin.pause();
      stderr.write('\n');
      if (result instanceof Error) reject(result);
      else resolve(result);
    };
    const onEnd = () => finish(new CancelledError('Cancelled: nothing was changed.'));
    const onData = (chunk: Buffer | string) => {
      for (const ch of String(chunk)) {
        if (ch === '\u0003' || ch === '\u0004')
          return finish(new CancelledError('Cancelled: nothing was changed.'));
        if (ch === '\r' || ch === '\n') return finish(/^y(es)?$/i.test(answer.trim()));
        if (ch === '\u007f' || ch === '\b') {
          if (answer) {
            answer = answer.slice(0, -1);
            stderr.write('\b \b');
          }
        } else if (ch >= ' ') {
          answer += ch;
          stderr.write(ch);
        }
      }
    };
    stdin.setRawMode?.(true);
    stdin.setEncoding?.('utf8');
    stdin.on('data', onData);
    stdin.on('end', onEnd);
    stdin.resume();
  });
}
