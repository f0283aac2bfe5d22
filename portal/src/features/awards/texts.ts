/** The award pages' own messages (learner §8; the spec's spellings corrected in docs/copy-errata.json). */
export const PAGE_TEXT = {
  /** The image could not be made (spec: "Couldn't ready to download the certificate. Please try later"). */
  imageFailed: "Couldn't get the certificate ready to download. Please try later",
  /** Below 1050 px, beside the certificate's Download. */
  desktopOnly: 'Please download in desktop or laptop.',
  /** Below 1050 px, when Download is pressed. */
  desktopLater: 'Please try later in desktop or laptop to download the image.',
  copied: 'The link to this award is copied.',
} as const;
