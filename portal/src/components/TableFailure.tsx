import type { MessageKey } from '@shared/i18n/keys';
import { useI18n } from '@widgets/core/i18n';
import { LoadFailed } from '@widgets/ui/LoadFailed';

/** The mentor portal's words for data it could not obtain (mentor §8 tables). */
export const TABLE_FAILED = {
  title: 'table.failedTitle',
  text: 'table.failedText',
} as const satisfies Record<string, MessageKey>;

/** 'Failed' / 'At this time, we are unable to obtain the data…' in place of a table that did not load. */
export function TableFailure() {
  const { t } = useI18n();
  return (
    <LoadFailed>
      <strong>{t(TABLE_FAILED.title)}</strong>&nbsp;{t(TABLE_FAILED.text)}
    </LoadFailed>
  );
}
