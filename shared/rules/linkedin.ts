/**
 * LinkedIn's "Add to profile" link for a certification (learner §2 Award pages). LinkedIn documents the
 * pre-filled form at https://www.linkedin.com/profile/add with startTask=CERTIFICATION_NAME and the
 * parameters name, organizationId or organizationName, issueYear, issueMonth (1-12), expirationYear,
 * expirationMonth, certUrl and certId.
 */

export const LINKEDIN_ADD_TO_PROFILE = 'https://www.linkedin.com/profile/add';

export interface LinkedInCertification {
  /** What was earned, e.g. 'TypeScript Foundations — Certificate'. */
  name: string;
  /** The issuer's name as LinkedIn shows it (used when no organizationId is known). */
  organizationName: string;
  /** The issuer's LinkedIn company id, when it has one; LinkedIn prefers it to the name. */
  organizationId?: string | number;
  issueYear: number;
  /** 1-based: January is 1. */
  issueMonth: number;
  expirationYear?: number;
  expirationMonth?: number;
  /** The public award page, e.g. https://waymark.example/certificate/{linkId}. */
  certUrl: string;
  /** The credential id: the link id. */
  certId: string;
}

function checkMonth(month: number, field: string) {
  if (!Number.isInteger(month) || month < 1 || month > 12) {
    throw new RangeError(`${field} must be a month from 1 to 12, got ${month}`);
  }
}

/** The 'Add to profile' address with every parameter encoded. */
export function linkedInAddToProfileUrl(cert: LinkedInCertification): string {
  checkMonth(cert.issueMonth, 'issueMonth');
  if (cert.expirationMonth !== undefined) checkMonth(cert.expirationMonth, 'expirationMonth');
  const params = new URLSearchParams({ startTask: 'CERTIFICATION_NAME', name: cert.name });
  if (cert.organizationId !== undefined && cert.organizationId !== '') {
    params.set('organizationId', String(cert.organizationId));
  } else {
    params.set('organizationName', cert.organizationName);
  }
  params.set('issueYear', String(cert.issueYear));
  params.set('issueMonth', String(cert.issueMonth));
  if (cert.expirationYear !== undefined) params.set('expirationYear', String(cert.expirationYear));
  if (cert.expirationMonth !== undefined) params.set('expirationMonth', String(cert.expirationMonth));
  params.set('certUrl', cert.certUrl);
  params.set('certId', cert.certId);
  return `${LINKEDIN_ADD_TO_PROFILE}?${params.toString()}`;
}

/**
 * The same link from what GET /certificate/certificate-info-v2/{id} returns. `orgId` is LinkedIn's company id
 * when it is all digits, otherwise the issuer's name.
 */
export function linkedInUrlForAward(info: {
  linkId: string;
  certificateUrl: string;
  orgId: string;
  completetedYear: number;
  completetedMonth: number;
  title: string;
}): string {
  const numeric = /^\d+$/.test(info.orgId);
  return linkedInAddToProfileUrl({
    name: info.title,
    organizationName: info.orgId,
    ...(numeric ? { organizationId: info.orgId } : {}),
    issueYear: info.completetedYear,
    issueMonth: info.completetedMonth,
    certUrl: info.certificateUrl,
    certId: info.linkId,
  });
}
