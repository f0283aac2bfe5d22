/**
 * The Open Badges 3.0 data-model check says what fails in words a person can read, each followed by the
 * property's path (issue 25: the report gave raw paths only — "credentialSubject.identifier.0.hashed must
 * be true or false"). The credential is the contract's own example of a Waymark feather.
 */
import { describe, expect, it } from 'vitest';
import example from '../contract/examples/credentials/verifyCredential.json';
import { openBadgeProblems } from './ob3';

// biome-ignore lint/suspicious/noExplicitAny: the test breaks the credential where it likes
type Json = Record<string, any>;
const feather = () => structuredClone(example.request.body.credential) as Json;

describe('openBadgeProblems', () => {
  it('finds nothing wrong with a Waymark feather', () => {
    expect(openBadgeProblems(feather())).toEqual([]);
  });

  it('says what is missing or wrong in words, with the path after', () => {
    const vc = feather();
    delete vc.credentialSubject.achievement.description;
    vc.credentialSubject.achievement.criteria = {};
    vc.credentialSubject.identifier[1].hashed = 'no';
    vc.credentialSubject.identifier[0].identityHash = 'sha256$not-hex';
    vc.issuer = 'did:web:waymark.example.com';
    vc.evidence[0].type = ['Proof'];
    vc.validFrom = '25 November 2026';
    expect(openBadgeProblems(vc)).toEqual([
      'the date it was issued is missing or not a date and time with a time zone (validFrom)',
      'the issuer is not described as a Profile (an object with an id and type "Profile") (issuer)',
      'the recipient\'s first identifier says it is hashed, but its value is not "sha256$" and a hex digest (credentialSubject.identifier.0.identityHash)',
      "the recipient's second identifier does not say whether it is hashed (true or false) (credentialSubject.identifier.1.hashed)",
      'the achievement has no description (credentialSubject.achievement.description)',
      "the achievement's criteria have neither an address nor a narrative (credentialSubject.achievement.criteria)",
      'the first piece of evidence does not say it is an Evidence (its type must include "Evidence") (evidence.0.type)',
    ]);
  });
});
