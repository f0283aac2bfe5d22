import { useI18n } from '@widgets/core/i18n';
import { useNavigate, useParams } from 'react-router';
import { QuestionEditor } from './QuestionEditor';

/** /portal/create-question/{id}: the question editor on its own page. */
export default function CreateQuestionPage() {
  const { id = '' } = useParams();
  const navigate = useNavigate();
  const { t } = useI18n();
  return (
    <div className="page">
      <h1>{t('authoring.questionEditor')}</h1>
      <QuestionEditor
        questionId={id}
        onSaved={() => navigate('/portal/manage-assessment')}
        onBack={() => navigate(-1)}
      />
    </div>
  );
}
