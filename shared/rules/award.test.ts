import { english, loaders } from 'virtual:wm-messages';
import { describe, expect, it } from 'vitest';
import { createTranslator } from '../i18n/translator';
import type { CertificateInfo } from '../schemas/award';
import {
  achievementIn,
  achievementOf,
  achievementScope,
  awardLinkedInUrl,
  awardTitle,
  UNNAMED_ACHIEVEMENT,
} from './award';

const base: CertificateInfo = {
  linkId: 'AbC_123-xyz0',
  type: 'RESOURCE',
  userName: 'Asha Learner',
  assignedResourceName: 'Closures & scope',
  assignedSectionName: 'Functions',
  assignedRoadMapName: 'JavaScript Foundations',
  subject: { name: 'Programming' },
  createdAt: '2026-01-31T23:30:00.000Z',
  s3CertificateUrl: null,
  certificateUrl: 'https://waymark.example/feather/AbC_123-xyz0',
  certificateGenerated: false,
  orgId: 'Waymark',
  completetedYear: 2026,
  completetedMonth: 1,
  isOwner: false,
  sandbox: false,
};

describe('what an award names', () => {
  it('is the resource for a feather, the section for a badge, the roadmap or subject for a certificate', () => {
    expect(achievementOf(base)).toBe('Closures & scope');
    expect(achievementOf({ ...base, type: 'SECTION' })).toBe('Functions');
    expect(achievementOf({ ...base, type: 'ROADMAP' })).toBe('JavaScript Foundations');
    expect(achievementOf({ ...base, type: 'SUBJECT', assignedRoadMapName: null })).toBe('Programming');
    expect(achievementScope({ type: 'SUBJECT' })).toBe('subject');
    expect(achievementScope({ type: 'ROADMAP' })).toBe('roadmap');
  });

  it('falls back to the wider name when a narrower one is missing', () => {
    expect(achievementOf({ ...base, assignedResourceName: null })).toBe('Functions');
    expect(achievementOf({ ...base, type: 'SECTION', assignedSectionName: null })).toBe(
      'JavaScript Foundations',
    );
  });

  it('titles the award by its kind', () => {
    expect(awardTitle(base)).toBe('Feather: Closures & scope');
    expect(awardTitle({ ...base, type: 'SECTION' })).toBe('Badge: Functions');
    expect(awardTitle({ ...base, type: 'SUBJECT' })).toBe('Certificate: Programming');
  });
});

describe("the award's LinkedIn link", () => {
  it('carries the title, the issuer, the 1-based month, the public page and the link id, encoded', () => {
    const href = awardLinkedInUrl(base);
    const url = new URL(href);
    expect(url.origin + url.pathname).toBe('https://www.linkedin.com/profile/add');
    expect(Object.fromEntries(url.searchParams)).toEqual({
      startTask: 'CERTIFICATION_NAME',
      name: 'Feather: Closures & scope',
      organizationName: 'Waymark',
      issueYear: '2026',
      issueMonth: '1',
      // the verify page, so the profile entry points at verifiable proof
      certUrl: 'https://waymark.example/verify/AbC_123-xyz0',
      certId: 'AbC_123-xyz0',
    });
    // the ampersand and the URL are encoded, not cut into separate parameters
    expect(href).toContain('name=Feather%3A+Closures+%26+scope');
    expect(href).toContain('certUrl=https%3A%2F%2Fwaymark.example%2Fverify%2FAbC_123-xyz0');
  });

  it('passes December as 12', () => {
    const url = new URL(awardLinkedInUrl({ ...base, completetedMonth: 12 }));
    expect(url.searchParams.get('issueMonth')).toBe('12');
  });
});

describe('an achievement the award kept no name of', () => {
  const unnamed = {
    ...base,
    assignedResourceName: null,
    assignedSectionName: null,
    assignedRoadMapName: null,
    subject: null,
  };
  it.each(['RESOURCE', 'SECTION', 'ROADMAP', 'SUBJECT', 'CUSTOM-TEST'] as const)(
    '%s: the English words are the catalogue’s, and Spanish says its own',
    async (type) => {
      const en = createTranslator('en', english);
      const es = createTranslator('es', (await loaders.es()).default, english);
      const info = { ...unnamed, type };
      expect(achievementOf(info)).toBe(UNNAMED_ACHIEVEMENT[achievementScope(info)]);
      expect(achievementIn(info, en)).toBe(achievementOf(info));
      expect(achievementIn(info, es)).not.toBe(achievementOf(info));
      expect(achievementIn({ ...base, type }, es)).toBe(achievementOf({ ...base, type }));
    },
  );
});
