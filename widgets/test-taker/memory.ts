/**
 * What this browser tab remembers of a test (session storage, one entry per link): the current question,
 * the answers the server has not confirmed yet, and whether this tab took or finished the test — so a
 * reload resumes on the same question with nothing lost, and a reload after the end shows the score again.
 */
import type { AnswerPayload } from './answers';

export interface TestMemory {
  /** The question shown (0-based). */
  index?: number;
  /** Answers given but not confirmed by the server. */
  unsaved?: AnswerPayload[];
  /** This tab started the test. */
  taken?: boolean;
}

const key = (linkId: string) => `waymark.test.${linkId}`;

export function readMemory(linkId: string): TestMemory {
  try {
    const raw = globalThis.sessionStorage?.getItem(key(linkId));
    const value = raw ? (JSON.parse(raw) as unknown) : null;
    return value && typeof value === 'object' ? (value as TestMemory) : {};
  } catch {
    return {};
  }
}

export function writeMemory(linkId: string, patch: TestMemory) {
  try {
    globalThis.sessionStorage?.setItem(key(linkId), JSON.stringify({ ...readMemory(linkId), ...patch }));
  } catch {
    // storage unavailable (private mode, quota): the server still has every saved answer
  }
}
