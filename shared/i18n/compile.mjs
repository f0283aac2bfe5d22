/**
 * Catalogues compiled for Lingui's runtime (`@lingui/core`), at build time (scripts/i18n/vite-plugin.mjs)
 * and when the server starts: each ICU MessageFormat message becomes Lingui's token array, and a message
 * with no argument stays a plain string (the translator returns it as it is). Not for browsers: it carries
 * the ICU parser, which the compiled catalogues exist to leave out. Plain JavaScript, so that Vite can load
 * it in its configuration as Node runs it.
 */
import { compileMessageOrThrow } from '@lingui/message-utils/compileMessage';

/** One message compiled; a message that is one piece of text is that text. Throws on invalid ICU. */
export function compileOne(message, mapText) {
  const compiled = compileMessageOrThrow(message, mapText);
  if (compiled.length === 0) return '';
  if (compiled.length === 1 && typeof compiled[0] === 'string') return compiled[0];
  return compiled;
}

/** Every message of a catalogue compiled (only `keys`, when given); the key named in a syntax error. */
export function compileCatalogue(source, keys, mapText) {
  const out = {};
  for (const key of keys ?? Object.keys(source)) {
    const message = source[key];
    if (message === undefined) continue;
    try {
      out[key] = compileOne(message, mapText);
    } catch (err) {
      throw new Error(`message ${key}: ${err.message}`);
    }
  }
  return out;
}

const PLAIN = 'abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ';
const MARKED = [...'åƀçđéƒĝĥîĵķļɱñöþǫŕšţûṽŵẋýžÅƁÇĐÉƑĜĤÎĴĶĻṀÑÖÞǪŔŠŢÛṼŴẊÝŽ'];
const TAG = /<\/?\d+\/?>/g;

/**
 * A piece of text in the pseudo-locale: every ASCII letter accented and the text made about 40 % longer,
 * so that text a catalogue does not supply stands out and layouts meet longer words. Tags of rich text
 * (`<0>`, `</0>`) and everything that is not a letter stay as they are.
 */
export function pseudoText(text) {
  if (!/[A-Za-z]/.test(text)) return text;
  const accented = text.replace(/<\/?\d+\/?>|[A-Za-z]/g, (m) =>
    m.length === 1 ? MARKED[PLAIN.indexOf(m)] : m,
  );
  const letters = text.replace(TAG, '').length;
  const extra = Math.max(1, Math.round(letters * 0.4));
  const padding = '·~'.repeat(Math.ceil(extra / 2)).slice(0, extra);
  // the padding goes before trailing spaces, so that words keep their spacing
  return accented.replace(/(\s*)$/, `${padding}$1`);
}

/** The pseudo-locale's catalogue, compiled from English: accented, longer, each message in brackets. */
export function compilePseudo(english, keys) {
  const out = compileCatalogue(english, keys, pseudoText);
  for (const [key, message] of Object.entries(out)) {
    out[key] = typeof message === 'string' ? `[${message}]` : ['[', ...message, ']'];
  }
  return out;
}
