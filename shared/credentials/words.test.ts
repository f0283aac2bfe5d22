/**
 * The verifier's words carry a stable code (their message key) and the values they name beside their
 * English (issue 31): the English the API and the CLI keep is the English catalogue's text with those
 * values, and the verify page says the same code in Spanish or Arabic.
 */
import { english, loaders } from 'virtual:wm-messages';
import { describe, expect, it } from 'vitest';
import example from '../contract/examples/credentials/verifyCredential.json';
import source from '../i18n/messages/en.json';
import { createTranslator } from '../i18n/translator';
import { openBadgeFindings } from './ob3';
import { unsupportedProof } from './proof';
import { englishOf, WORD_CODES } from './words';

const en = createTranslator('en', english);
const NUMERIC = new Set(['count', 'index', 'max', 'n', 'size', 'depth']);
/** Words whose count is never one, and what their `what`/`type`/`purpose` may be. */
const SEVERAL = new Set([
  'verify.summary.proofMismatch',
  'verify.check.proofsMatch',
  'verify.check.tooManyProofs',
]);
const CHOICES: Record<string, string[]> = {
  what: [
    'issuer',
    'recipient',
    'achievement',
    'creator',
    'resultDescription',
    'result',
    'evidence',
    'achievementImage',
    'credentialImage',
  ],
  type: ['Profile', 'AchievementSubject', 'Achievement', 'Evidence', 'Result'],
  purpose: ['revocation', 'suspension'],
};

function samples(code: string): Record<string, string | number>[] {
  const text = (source as Record<string, string>)[code]!;
  const names = [...new Set([...text.matchAll(/\{(\w+)[,}]/g)].map((m) => m[1]!))].filter(
    (name) => !/^\d+$/.test(name),
  );
  const numbers = SEVERAL.has(code) ? [2, 3] : [1, 2, 3, 12];
  return numbers.flatMap((n) =>
    (CHOICES.what && names.includes('what') ? CHOICES.what : ['']).flatMap((what) =>
      (names.includes('type') ? CHOICES.type! : ['']).flatMap((type) =>
        (names.includes('purpose') ? CHOICES.purpose! : ['']).map((purpose) =>
          Object.fromEntries(
            names.map((name) => [
              name,
              NUMERIC.has(name)
                ? n
                : name === 'what'
                  ? what
                  : name === 'type'
                    ? type
                    : name === 'purpose'
                      ? purpose
                      : `‹${name}›`,
            ]),
          ),
        ),
      ),
    ),
  );
}

// biome-ignore lint/suspicious/noExplicitAny: the test breaks the credential where it likes
const feather = () => structuredClone(example.request.body.credential) as Record<string, any>;

describe('the verifier’s words, by code', () => {
  it('say in the English catalogue exactly what the API and the CLI say, for every code and value', () => {
    expect(WORD_CODES.length).toBeGreaterThan(100);
    for (const code of WORD_CODES) {
      expect(source, code).toHaveProperty([code]);
      for (const params of samples(code)) expect(en.t(code, params), code).toBe(englishOf(code, params));
    }
  });

  it('give each Open Badges problem its code and values, said in Spanish and Arabic', async () => {
    const es = createTranslator('es', (await loaders.es()).default, english);
    const ar = createTranslator('ar', (await loaders.ar()).default, english);
    const vc = feather();
    vc.credentialSubject.identifier[1].hashed = 'no';
    vc.evidence[0].type = ['Proof'];
    const [hashed, evidence] = openBadgeFindings(vc);
    expect(hashed).toMatchObject({
      code: 'verify.ob.identifierHashed',
      params: { n: 2, path: 'credentialSubject.identifier.1.hashed' },
    });
    expect(es.t(hashed!.code, hashed!.params)).toBe(
      'el identificador 2.º del destinatario no dice si está cifrado con hash (true o false) (credentialSubject.identifier.1.hashed)',
    );
    expect(evidence).toMatchObject({
      code: 'verify.ob.typed',
      params: { what: 'evidence', n: 1, type: 'Evidence' },
    });
    expect(ar.t(evidence!.code, evidence!.params)).toBe(
      'الدليل رقم 1 لا يقول إنه Evidence (يجب أن يتضمن نوعه "Evidence") (evidence.0.type)',
    );
    const chained = unsupportedProof(
      {
        type: 'DataIntegrityProof',
        cryptosuite: 'eddsa-rdfc-2022',
        previousProof: 'x',
        verificationMethod: 'did:key:z#z',
      },
      { index: 2, count: 3 },
    );
    expect(chained?.message).toBe(
      'Its proof 2 of 3 is chained to an earlier proof (previousProof), which this verifier does not check. Every proof must hold for a credential to be valid.',
    );
    expect(es.t(chained!.code, chained!.params)).toMatch(/^Su prueba 2 de 3 está encadenada/);
  });
});
