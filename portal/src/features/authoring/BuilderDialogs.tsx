import { deleteQuestion, questionFeedbackList } from '@shared/contract/authoring';
import { formatDateTime } from '@shared/rules/format-date';
import type { Question } from '@shared/schemas/assessment';
import { client } from '@widgets/core/api';
import { useI18n } from '@widgets/core/i18n';
import { messageOf, useCall } from '@widgets/core/useCall';
import { Arrow } from '@widgets/ui/Arrow';
import { Dialog } from '@widgets/ui/Dialog';
import { Loader } from '@widgets/ui/Loader';
import { toast } from '@widgets/ui/Toast';
import { Link } from 'react-router';

/** The resources a question belongs to, with their roadmaps. */
export function ResourcesDialog({ question, onClose }: { question: Question | null; onClose: () => void }) {
  const { t } = useI18n();
  return (
    <Dialog open={Boolean(question)} title={t('builder.resourceList')} onClose={onClose}>
      <table className="table">
        <thead>
          <tr>
            <th scope="col">{t('builder.sn')}</th>
            <th scope="col">{t('builder.actualTitle')}</th>
            <th scope="col">{t('column.roadmap')}</th>
          </tr>
        </thead>
        <tbody>
          {question?.belongToResource.map((r, i) => (
            <tr key={r._id}>
              <td data-label={t('builder.sn')}>{i + 1}</td>
              <td data-label={t('builder.actualTitle')}>{r.actualTitle}</td>
              <td data-label={t('column.roadmap')}>
                {r.roadmapId ? <Link to={`/portal/roadmap/${r.roadmapId}`}>{r.roadmapName}</Link> : '—'}
              </td>
            </tr>
          ))}
        </tbody>
      </table>
    </Dialog>
  );
}

/** Asks before deleting a question from the bank; `onDeleted` runs once it is gone. */
export function DeleteQuestionDialog({
  question,
  onClose,
  onDeleted,
}: {
  question: Question | null;
  onClose: () => void;
  onDeleted: () => void;
}) {
  const { t } = useI18n();
  return (
    <Dialog
      open={Boolean(question)}
      title={t('builder.deleteTitle')}
      role="alertdialog"
      onClose={onClose}
      actions={
        <>
          <button type="button" className="btn btn-secondary" onClick={onClose}>
            {t('common.cancel')}
          </button>
          <button
            type="button"
            className="btn btn-danger"
            onClick={async () => {
              const q = question;
              onClose();
              if (!q) return;
              try {
                await client.call(deleteQuestion, { params: { id: q._id } });
                onDeleted();
              } catch (err) {
                toast(messageOf(err, t('builder.somethingWrong')), { kind: 'error' });
              }
            }}
          >
            {t('editor.delete')}
          </button>
        </>
      }
    >
      <p>{t('builder.deleteText')}</p>
    </Dialog>
  );
}

/** Learners' feedback on a question, each with its history of status changes. */
export function FeedbackDialog({ question, onClose }: { question: Question | null; onClose: () => void }) {
  const { t, locale } = useI18n();
  const list = useCall(
    (signal) =>
      question
        ? client.call(questionFeedbackList, { params: { id: question._id }, signal }).then((r) => r.data)
        : Promise.resolve([]),
    [question?._id],
  );
  return (
    <Dialog open={Boolean(question)} title={t('builder.feedbackList')} onClose={onClose}>
      {list.loading ? <Loader text={t('manage.fetching')} /> : null}
      {list.data?.length === 0 ? <p className="empty">{t('tenant.noData')}</p> : null}
      <ul className="feedback-list">
        {list.data?.map((f) => (
          <li key={f._id} className="card">
            <p>{f.feedback}</p>
            <p className="muted">
              <span className="badge">{f.status}</span> · {formatDateTime(f.createdAt, undefined, locale)} ·{' '}
              {f.userId.name} ({f.userId.role})
            </p>
            {f.activites.length ? (
              <ol className="activity">
                {f.activites.map((a) => (
                  <li key={`${a.createdAt}-${a.toStatus}`}>
                    {a.message} <Arrow to="forward" /> <strong>{a.toStatus}</strong> ·{' '}
                    {formatDateTime(a.createdAt, undefined, locale)} · {a.userId.name}
                  </li>
                ))}
              </ol>
            ) : null}
          </li>
        ))}
      </ul>
    </Dialog>
  );
}
