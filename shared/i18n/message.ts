/**
 * A message to be said in the reader's language later: its key and its values. The server's refusals carry
 * one (server/http/errors.ts says it in the language of the request), as do the shared rules whose words
 * the server and the pages both say (a test link that cannot be taken, a retake's cool-down).
 */
import type { MessageKey } from './keys';
import type { MessageValues, Translator } from './translator';

export interface LocalMessage {
  readonly key: MessageKey;
  readonly values?: MessageValues;
}

export const localMessage = (key: MessageKey, values?: MessageValues): LocalMessage =>
  values ? { key, values } : { key };

export const isLocalMessage = (value: unknown): value is LocalMessage =>
  typeof value === 'object' && value !== null && typeof (value as LocalMessage).key === 'string';

/** What a function that says things in the reader's language needs: the words and the language. */
export type Speaker = Pick<Translator, 't' | 'locale'>;
