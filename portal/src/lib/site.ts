/** Facts the public pages repeat: the company's contact details and the copyright year (mentor §1, §9). */
import type { MessageKey } from '@shared/i18n/keys';
export const COMPANY = 'Waymark Learning';
export const PRODUCT = 'Waymark';
/** Until the server's public configuration names a support address. */
export const SUPPORT_EMAIL = 'support@waymark.local';
export const ADDRESS_LINES = [
  'Waymark Learning',
  '3rd Floor, 42 Residency Road',
  'Bengaluru 560025, Karnataka, India',
];
/** When support answers (a message key). */
export const SUPPORT_HOURS = 'site.supportHours' satisfies MessageKey;
export const COPYRIGHT_YEAR = 2023;
/** Nav bar and scroll-to-top arrow appear after this many pixels of scrolling (mentor §9). */
export const SCROLL_THRESHOLD_PX = 100;
