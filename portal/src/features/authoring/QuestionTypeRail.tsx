/** The editor's type rail: one radio per question type, named from the question-type table. */
import { QUESTION_TYPES } from '@shared/rules/question-types';
import type { QuestionType } from '@shared/schemas/assessment';
import { QuestionTypeName } from '@widgets/assessments/QuestionTypeName';
import { useI18n } from '@widgets/core/i18n';

export function QuestionTypeRail({
  name,
  value,
  onPick,
}: {
  /** The radio group's name, unique on the page. */
  name: string;
  value: QuestionType;
  onPick: (type: QuestionType) => void;
}) {
  const i18n = useI18n();
  return (
    <fieldset className="type-rail">
      <legend>{i18n.t('authoring.questionType')}</legend>
      {QUESTION_TYPES.map((t) => (
        <label key={t} className={`type-choice${value === t ? ' selected' : ''}`}>
          <input type="radio" name={name} value={t} checked={value === t} onChange={() => onPick(t)} />
          <span>
            <QuestionTypeName type={t} />
          </span>
        </label>
      ))}
    </fieldset>
  );
}
