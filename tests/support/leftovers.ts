/**
 * What the pseudo-locale sweep (tests/e2e/pseudo-locale.spec.ts) reads on a page, and what of it is content:
 * the demo's own strings (server/demo), and what is not words of the interface.
 */
import { ADDRESS_LINES } from '../../portal/src/lib/site';
import { DEMO_ACCOUNTS } from '../../server/demo/accounts';
import { DEMO_AUTHORS } from '../../server/demo/authors';
import { DEMO_LANGUAGES, DEMO_SUBJECTS } from '../../server/demo/lists';
import { DEMO_QUESTIONS, DEMO_ROADMAPS } from '../../server/demo/subjects';
import { LOCALE_NAMES } from '../../shared/i18n/locales';

/** Every string of the demo's content: it keeps its own language (issue 31 §3). */
export function demoContent(extra: readonly string[]): string[] {
  const out = new Set<string>([
    ...Object.values(LOCALE_NAMES),
    'Waymark',
    'LinkedIn',
    'Google',
    'GitHub',
    'Microsoft',
    'Open Badges',
    'Karnataka',
    'Bengaluru',
    '12 MG Road',
    'India',
    ...extra,
    ...ADDRESS_LINES,
    // the demo learner's wrong typed answer (server/demo/assessments.ts)
    'not sure',
  ]);
  const walk = (v: unknown): void => {
    if (typeof v === 'string') out.add(v.trim());
    else if (Array.isArray(v)) for (const x of v) walk(x);
    else if (v && typeof v === 'object') for (const x of Object.values(v)) walk(x);
  };
  // the subjects are the keys of their lists
  for (const subject of Object.keys(DEMO_SUBJECTS)) out.add(subject);
  walk([DEMO_ACCOUNTS, DEMO_AUTHORS, DEMO_SUBJECTS, DEMO_LANGUAGES, DEMO_ROADMAPS, DEMO_QUESTIONS]);
  return [...out].filter((s) => s.length >= 3).sort((a, b) => b.length - a.length);
}

/** What is not words of the interface: addresses, numbers, dates and times as Intl writes them, codes. */
const NOT_WORDS = [
  // a signed credential's own name, as it was issued (shared/rules/award.ts)
  /^(Feather|Badge|Certificate): .*/g,
  // durations in English words: the pseudo-locale is English to Intl (shared/rules/durations.ts)
  /\b\d+ (seconds?|minutes?|hours?|days?|weeks?|months?|years?)\b/g,
  /\S+@\S+/g,
  /\bhttps?:\/\/\S+/g,
  /\b[\w-]+(\.[\w-]+)+\/?\S*/g,
  // ids of links and credentials
  /[\w-]{16,}/g,
  /\b(Jan|Feb|Mar|Apr|May|Jun|Jul|Aug|Sep|Sept|Oct|Nov|Dec)\b/g,
  /\b(January|February|March|April|June|July|August|September|October|November|December)\b/g,
  /\b(Mon|Tue|Wed|Thu|Fri|Sat|Sun|Monday|Tuesday|Wednesday|Thursday|Friday|Saturday|Sunday)\b/g,
  /\b\d+(st|nd|rd|th|h|m|s|min|sec|hr|px)\b/gi,
  /\b(am|pm|AM|PM)\b/g,
  /\b[A-Z0-9_-]{2,}\b/g,
  /\b[0-9a-f]{8,}\b/gi,
];

/** The words of `text` that are neither content nor pseudo-accented: empty when it is none. */
export function leftoverOf(text: string, content: readonly string[]): string {
  let rest = text;
  for (const c of content) if (rest.includes(c)) rest = rest.split(c).join(' ');
  for (const re of NOT_WORDS) rest = rest.replace(re, ' ');
  // what is left of a list of content joined by Intl.ListFormat (English to Intl in the pseudo-locale)
  rest = rest.replace(/^[\s,]*((and|or)[\s,]+)*$/, '');
  return /[A-Za-z]{2,}/.test(rest) ? text : '';
}

/** Visible text and accessible names on the page (open shadow roots too) with no pseudo-accent. */
export function collect(): { text: string; how: string }[] {
  const MARK = /[åƀçđéƒĝĥîĵķļɱñöþǫŕšţûṽŵẋýžÅƁÇĐÉƑĜĤÎĴĶĻṀÑÖÞǪŔŠŢÛṼŴẊÝŽ]/;
  const SKIP = 'script,style,noscript,template,code,pre,kbd,samp,textarea,[translate="no"]';
  const out: { text: string; how: string }[] = [];
  const lang = document.documentElement.lang;
  // text in a language of its own (a legal page binding in English, content that says its language) is not
  // the interface's
  const seen = (el: Element) =>
    !el.closest(SKIP) &&
    (el.closest('[lang]')?.getAttribute('lang') ?? lang) === lang &&
    el.checkVisibility({ visibilityProperty: true } as CheckVisibilityOptions);
  const visit = (root: Document | ShadowRoot) => {
    const walker = document.createTreeWalker(root, NodeFilter.SHOW_TEXT);
    for (let n = walker.nextNode(); n; n = walker.nextNode()) {
      const text = (n.textContent ?? '').replace(/\s+/g, ' ').trim();
      const el = n.parentElement;
      if (text && /[A-Za-z]{2}/.test(text) && !MARK.test(text) && el && seen(el))
        out.push({ text, how: el.tagName.toLowerCase() });
    }
    for (const el of root.querySelectorAll('*')) {
      for (const attr of ['aria-label', 'title', 'placeholder', 'alt']) {
        const text = el.getAttribute(attr)?.trim();
        if (text && /[A-Za-z]{2}/.test(text) && !MARK.test(text) && seen(el))
          out.push({ text, how: `${el.tagName.toLowerCase()}[${attr}]` });
      }
      if (el.shadowRoot) visit(el.shadowRoot);
    }
  };
  visit(document);
  return out;
}

/** The links of the page (open shadow roots too), as paths of this origin. */
export function links(): string[] {
  const out: string[] = [];
  const visit = (root: Document | ShadowRoot) => {
    for (const el of root.querySelectorAll('*')) {
      if (el instanceof HTMLAnchorElement && el.origin === location.origin) out.push(el.pathname);
      if (el.shadowRoot) visit(el.shadowRoot);
    }
  };
  visit(document);
  return out;
}
