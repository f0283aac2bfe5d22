/** The award pages' own messages (learner §8; the spec's spellings corrected in docs/copy-errata.json), as message keys. */
import type { MessageKey } from '@shared/i18n/keys';

export const PAGE_TEXT = {
  /** The image could not be made (spec: "Couldn't ready to download the certificate. Please try later"). */
  imageFailed: 'awardPage.imageFailed',
  /** Below 1050 px, beside the certificate's Download. */
  desktopOnly: 'awardPage.desktopOnly',
  /** Below 1050 px, when Download is pressed. */
  desktopLater: 'awardPage.desktopLater',
  copied: 'awardPage.copied',
} as const satisfies Record<string, MessageKey>;
