/** A question's type by its name on screen (the question-type table's label), in the reader's language. */
import { type MaybeQuestionType, typeLabel } from '@shared/rules/question-types';
import { useI18n } from '../core/i18n';

export function QuestionTypeName({ type }: { type: MaybeQuestionType }) {
  const { t } = useI18n();
  return <>{t(typeLabel(type))}</>;
}
