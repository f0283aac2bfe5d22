/**
 * Every mail in the recipient's language (issue 31): each mail's subject and text, made as the code makes
 * it, said in Spanish, keeps no English word of its template — the test-link mail, the shared assessment's,
 * the renewal reminder (with an award that kept no name: achievementIn, not achievementOf's English), the
 * no-seat notice, the SCIM welcome, the notice of a webhook endpoint Waymark disabled and the LTI launch's
 * seats-exhausted notice.
 */
import type { MessageKey } from '@shared/i18n/keys';
import type { MessageValues, Translator } from '@shared/i18n/translator';
import { achievementIn, achievementOf } from '@shared/rules/award';
import { describe, expect, it } from 'vitest';
import { seatsMail } from '../integrations/lti/routes';
import { welcomeMail } from '../integrations/scim/users';
import { disabledMail } from '../integrations/webhooks/deliver';
import { noSeatMail } from '../tenant/notices';
import { translatorFor } from './i18n';

const en = translatorFor('en');
const es = translatorFor('es');

/** Words both languages write the same way (Spanish keeps "endpoint" and "LMS"; "410 Gone" is HTTP's own). */
const SAME = new Set(['waymark', 'mentor', 'endpoint', 'gone', 'lms']);

/** The words (three letters or more) of `text` that are not in the values the mail names. */
function wordsOf(text: string, values: MessageValues): Set<string> {
  const named = new Set(
    Object.values(values).flatMap(
      (v) =>
        String(v)
          .toLowerCase()
          .match(/\p{L}{3,}/gu) ?? [],
    ),
  );
  const words = text.toLowerCase().match(/\p{L}{3,}/gu) ?? [];
  return new Set(words.filter((w) => !named.has(w) && !SAME.has(w)));
}

/** The English words of the mail that its Spanish still has. */
function englishLeft(make: (t: Translator) => { subject: string; text: string }, values: MessageValues) {
  const english = make(en);
  const spanish = make(es);
  const left: string[] = [];
  for (const part of ['subject', 'text'] as const) {
    const spanishWords = wordsOf(spanish[part], values);
    for (const w of wordsOf(english[part], values)) if (spanishWords.has(w)) left.push(`${part}: ${w}`);
    expect(spanish[part]).not.toBe(english[part]);
  }
  return left;
}

/** A mail said from two keys with the same values (as links.ts, the assessments' share and renewals.ts say it). */
const said = (subject: MessageKey, text: MessageKey, values: MessageValues) => (t: Translator) => ({
  subject: t.t(subject, values),
  text: t.t(text, values),
});

describe('every mail in Spanish', () => {
  it('the test-link mail', () => {
    const values = {
      name: 'Ana',
      title: 'Closures',
      roadmap: 'JavaScript',
      url: 'https://w.example/test/x',
      days: 7,
      minutes: 30,
    };
    expect(englishLeft(said('mail.testLink.subject', 'mail.testLink.text', values), values)).toEqual([]);
  });

  it('the shared assessment’s mail', () => {
    const values = {
      learner: 'Ana',
      mentor: 'Omar',
      name: 'Quiz',
      when: '3 mar 2026 10:00',
      hours: 2,
      url: 'https://w.example/test/x',
    };
    expect(englishLeft(said('mail.customTest.subject', 'mail.customTest.text', values), values)).toEqual([]);
  });

  it.each([
    ['test', 'valid'],
    ['ask', 'expired'],
    ['named', 'valid'],
    ['other', 'expired'],
  ] as const)('the renewal reminder (%s, %s), for an award that kept no name', (renewal, state) => {
    // an old roadmap award without its roadmap's name: its kind in the reader's language
    const award = {
      type: 'ROADMAP',
      assignedResourceName: null,
      assignedSectionName: null,
      assignedRoadMapName: null,
      subject: null,
    } as const;
    expect(achievementOf(award)).toBe('a roadmap');
    expect(achievementIn(award, es)).toBe('una ruta');
    const values = {
      name: 'Ana',
      day: '3 mar 2026',
      renewal,
      state,
      url: 'https://w.example/x',
      subject: 'Python',
      page: 'https://w.example/certificate/x',
    };
    const make = (t: Translator) =>
      said('mail.renewal.subject', 'mail.renewal.text', { ...values, what: achievementIn(award, t) })(t);
    expect(englishLeft(make, values)).toEqual([]);
  });

  it.each(['scim', 'sso'] as const)('the no-seat notice (%s)', (kind) => {
    const input = { kind, who: 'lee@example.com', publicUrl: 'https://w.example' };
    expect(
      englishLeft((t) => noSeatMail(t, { name: 'Mina' }, input), {
        who: input.who,
        portal: `${input.publicUrl}/portal/users`,
        name: 'Mina',
      }),
    ).toEqual([]);
    expect(noSeatMail(es, { name: null }, input).text.startsWith('Hola:')).toBe(true);
  });

  it('the SCIM welcome', () => {
    const to = { org: 'Acme', name: 'Lee', email: 'lee@example.com', publicUrl: 'https://w.example' };
    expect(
      englishLeft((t) => welcomeMail(t, to), {
        org: 'Acme',
        name: 'Lee',
        email: to.email,
        login: `${to.publicUrl}/login`,
      }),
    ).toEqual([]);
    // no organisation's name: 'Your organisation' in the reader's language too
    const unnamed = { ...to, org: null };
    expect(
      englishLeft((t) => welcomeMail(t, unnamed), {
        name: 'Lee',
        email: to.email,
        login: `${to.publicUrl}/login`,
      }),
    ).toEqual([]);
  });

  it.each([
    { reasonCode: 'gone' } as const,
    { reasonCode: 'failing', failingSince: '2026-03-01T09:00:00.000Z', days: 3 } as const,
  ])('the notice of a webhook endpoint Waymark disabled ($reasonCode)', (why) => {
    const input = { url: 'https://hooks.example.com/in', why, publicUrl: 'https://w.example' };
    const values = {
      name: 'Mina',
      url: input.url,
      portal: `${input.publicUrl}/portal/integrations/webhooks`,
      month: 'Mar', // the date's: March is "Mar" in English and "mar" in Spanish
    };
    expect(englishLeft((t) => disabledMail(t, { name: 'Mina' }, input), values)).toEqual([]);
    expect(disabledMail(es, { name: null }, input).text.startsWith('Hola:')).toBe(true);
    // the date as each language writes it
    if (why.reasonCode === 'failing') {
      expect(disabledMail(en, { name: null }, input).text).toContain('since 1st Mar 2026 09:00');
      expect(disabledMail(es, { name: null }, input).text).toMatch(/desde el 1 mar 2026/);
    }
  });
  it("the LTI launch's notice that no seat was free", () => {
    const values = {
      email: 'ravi@example.edu',
      platform: 'Moodle of Example',
      portal: 'https://waymark.example',
    };
    expect(englishLeft((t) => seatsMail(t, values), values)).toEqual([]);
  });
});
