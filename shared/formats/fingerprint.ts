/**
 * A question's fingerprint: a SHA-256 of its content in one canonical form, so an import run again can say
 * `unchanged` for a question it already brought in, and a bank exported and imported again creates nothing.
 * The canonical form is the content as the server keeps it: texts trimmed, the explanation's paragraphs
 * joined, tags lower-cased without repeats, a fill-in-blank question's points; images by identity (the
 * SHA-256 of their bytes where the file carries them, else their address without its host, so a bank
 * exported from one address of a server and imported through another is the same).
 */

import { hasImageOptions, isTextAnswer } from '../rules/question-types';
import type { QuestionType } from '../schemas/assessment';

export interface FingerprintInput {
  question: string;
  questionType: QuestionType;
  code: string | null | undefined;
  points: number | undefined;
  subject: string | null | undefined;
  topic: string | null | undefined;
  /** Values of image options are image identities (imageIdentity). */
  options: readonly { value: string; isCorrect: boolean }[];
  explanation: readonly { value: string }[];
  tags: readonly string[];
  /** The question image's identity, or null. */
  image: string | null | undefined;
}

/** An image named by an address: the address without scheme and host. */
export function addressIdentity(ref: string): string {
  if (!/^https?:\/\//i.test(ref)) return ref;
  try {
    const u = new URL(ref);
    return `url:${decodeURIComponent(u.pathname)}${u.search}`;
  } catch {
    return ref;
  }
}

export const bytesIdentity = (sha256: string) => `sha256:${sha256}`;

export async function sha256Hex(bytes: Uint8Array | string): Promise<string> {
  const data = typeof bytes === 'string' ? new TextEncoder().encode(bytes) : bytes;
  const digest = await globalThis.crypto.subtle.digest('SHA-256', data as Uint8Array<ArrayBuffer>);
  return [...new Uint8Array(digest)].map((b) => b.toString(16).padStart(2, '0')).join('');
}

/** The canonical JSON a fingerprint hashes. */
export function canonicalQuestion(q: FingerprintInput): string {
  const fib = isTextAnswer(q.questionType);
  const image = hasImageOptions(q.questionType);
  const options = q.options
    .map((o) => ({ value: image ? o.value : o.value.trim(), correct: fib ? true : o.isCorrect }))
    .filter((o) => !fib || o.value !== '');
  return JSON.stringify({
    question: q.question.trim(),
    type: q.questionType,
    code: q.code?.trim() ? q.code : null,
    points: fib ? (q.points ?? 10) : null,
    subject: q.subject ?? null,
    topic: q.topic ?? null,
    options: options.map((o) => [o.value, o.correct]),
    explanation: q.explanation
      .map((e) => e.value.trim())
      .filter(Boolean)
      .join('\n\n'),
    tags: [...new Set(q.tags.map((t) => t.trim().toLowerCase()).filter(Boolean))].sort(),
    image: q.image || null,
  });
}

export const fingerprint = (q: FingerprintInput) => sha256Hex(canonicalQuestion(q));
