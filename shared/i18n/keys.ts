/** The message keys: those of the English catalogue, the source every other language translates. */
import type english from './messages/en.json';

/** A key of the catalogues; TypeScript refuses any other (a key used must exist in en.json). */
export type MessageKey = keyof typeof english;

/** Names a message key where a key is kept for later (a table of keys, a key sent by the server). */
export const messageKey = <K extends MessageKey>(key: K): K => key;
