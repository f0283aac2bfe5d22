import { describe, expect, it } from 'vitest';
import { LINKEDIN_ADD_TO_PROFILE, linkedInAddToProfileUrl, linkedInUrlForAward } from './linkedin';

describe("LinkedIn's add-to-profile link", () => {
  it('carries the documented parameters, month 1-based, certUrl the public page, certId the link id', () => {
    const url = new URL(
      linkedInAddToProfileUrl({
        name: 'TypeScript Foundations & Beyond',
        organizationName: 'Waymark',
        issueYear: 2026,
        issueMonth: 1,
        certUrl: 'https://waymark.example/certificate/AbC_123-xyz',
        certId: 'AbC_123-xyz',
      }),
    );
    expect(`${url.origin}${url.pathname}`).toBe(LINKEDIN_ADD_TO_PROFILE);
    expect(Object.fromEntries(url.searchParams)).toEqual({
      startTask: 'CERTIFICATION_NAME',
      name: 'TypeScript Foundations & Beyond',
      organizationName: 'Waymark',
      issueYear: '2026',
      issueMonth: '1',
      certUrl: 'https://waymark.example/certificate/AbC_123-xyz',
      certId: 'AbC_123-xyz',
    });
  });
  it('prefers an organisation id and passes expiry when given', () => {
    const url = new URL(
      linkedInAddToProfileUrl({
        name: 'x',
        organizationName: 'Waymark',
        organizationId: 1337,
        issueYear: 2026,
        issueMonth: 12,
        expirationYear: 2028,
        expirationMonth: 12,
        certUrl: 'https://w.example/badge/a',
        certId: 'a',
      }),
    );
    expect(url.searchParams.get('organizationId')).toBe('1337');
    expect(url.searchParams.has('organizationName')).toBe(false);
    expect(url.searchParams.get('expirationYear')).toBe('2028');
  });
  it('refuses a 0-based or out-of-range month', () => {
    const base = { name: 'x', organizationName: 'W', issueYear: 2026, certUrl: 'u', certId: 'c' };
    expect(() => linkedInAddToProfileUrl({ ...base, issueMonth: 0 })).toThrow(/1 to 12/);
    expect(() => linkedInAddToProfileUrl({ ...base, issueMonth: 13 })).toThrow(/1 to 12/);
  });
  it('builds the link from certificate info', () => {
    const url = new URL(
      linkedInUrlForAward({
        linkId: 'L1',
        title: 'Certificate: Web Basics',
        certificateUrl: 'https://w.example/certificate/L1',
        orgId: 'Waymark',
        completetedYear: 2026,
        completetedMonth: 3,
      }),
    );
    expect(url.searchParams.get('issueMonth')).toBe('3');
    expect(url.searchParams.get('organizationName')).toBe('Waymark');
    expect(url.searchParams.get('certId')).toBe('L1');
  });
});
