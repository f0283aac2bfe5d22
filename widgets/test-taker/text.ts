/** The test page's words (mentor §2.14, §4; spelling as docs/copy-errata.json records) and test-type labels, as message keys. */
import type { MessageKey } from '@shared/i18n/keys';
import type { TestType } from '@shared/schemas/assessment';

export const TEST_TEXT = {
  ready: 'test.ready',
  warnings: ['test.warningConnection', 'test.warningReload', 'test.warningTab'],
  finish: 'test.finishQuestion',
  notEnough: 'test.notEnough',
  error: 'common.somethingWentWrong',
  resumed: 'test.resumed',
  recorded: 'test.recorded',
  elsewhere: 'test.elsewhere',
  elsewhereText: 'test.elsewhereText',
  takeOver: 'test.takeOver',
  alsoOpen: 'test.alsoOpen',
  heldElsewhere: 'test.heldElsewhere',
  heldElsewhereText: 'test.heldElsewhereText',
  moveHereText: 'test.moveHereText',
  moveHere: 'test.moveHere',
  moving: 'test.moving',
  signInToMove: 'test.signInToMove',
} as const satisfies Record<string, MessageKey | readonly MessageKey[]>;

/** The kind of a test, as its badge says it. */
export const TYPE_LABELS: Record<TestType, MessageKey> = {
  RESOURCE: 'test.type.resource',
  'RESOURCE-FROM-WHATSAPP': 'test.type.resource',
  SECTION: 'test.type.section',
  ROADMAP: 'test.type.final',
  SUBJECT: 'test.type.subject',
  'CUSTOM-TEST': 'test.type.assessment',
  'INITIAL-ASSESSMENT': 'test.type.assessment',
};
