/** Facts the public pages repeat: the company's contact details and the copyright year (mentor §1, §9). */
export const COMPANY = 'Waymark Learning';
export const PRODUCT = 'Waymark';
/** Until the server's public configuration names a support address. */
export const SUPPORT_EMAIL = 'support@waymark.local';
export const ADDRESS_LINES = [
  'Waymark Learning',
  '3rd Floor, 42 Residency Road',
  'Bengaluru 560025, Karnataka, India',
];
export const SUPPORT_HOURS = 'Monday to Friday, 10:00 to 18:00 IST';
export const COPYRIGHT_YEAR = 2023;
/** Nav bar and scroll-to-top arrow appear after this many pixels of scrolling (mentor §9). */
export const SCROLL_THRESHOLD_PX = 100;
