import { ApiError } from '@shared/client/client';
import { type AssessmentSummary, assignAssessmentUsers } from '@shared/contract/authoring';
import { tenantUsersList } from '@shared/contract/tenant';
import type { MessageKey } from '@shared/i18n/keys';
import { formatDateTime } from '@shared/rules/format-date';
import { editorMessages, MIN_QUESTIONS_TO_SHARE } from '@shared/schemas/authoring';
import { client } from '@widgets/core/api';
import { Rich, useI18n } from '@widgets/core/i18n';
import { messageOf } from '@widgets/core/useCall';
import { Dialog } from '@widgets/ui/Dialog';
import { Spinner } from '@widgets/ui/Loader';
import { toast } from '@widgets/ui/Toast';
import { useEffect, useId, useState } from 'react';
import type { z } from 'zod';
import { TABLE_FAILED } from '../../components/TableFailure';
import { currentTranslator } from '../../lib/i18n';
import { editorKey, editorText } from './editorText';

type Summary = z.infer<typeof AssessmentSummary>;
interface Learner {
  id: string;
  label: string;
}

const QUARTER = 15 * 60_000;
/** The next quarter hour from now, as a datetime-local value. */
function nextQuarter(now = Date.now()): string {
  const t = new Date(Math.ceil((now + 60_000) / QUARTER) * QUARTER);
  const pad = (n: number) => String(n).padStart(2, '0');
  return `${t.getFullYear()}-${pad(t.getMonth() + 1)}-${pad(t.getDate())}T${pad(t.getHours())}:${pad(t.getMinutes())}`;
}

async function allLearners(): Promise<Learner[]> {
  const out: Learner[] = [];
  for (let page = 1; page <= 40; page++) {
    const res = await client.call(tenantUsersList, { query: { page, limit: 15 } });
    for (const row of res.data.tenantUserList) {
      if (!row.isDisabled)
        out.push({
          id: row.learnerId._id,
          label: `${row.learnerId.name ?? row.learnerId.email} (${row.learnerId.email})`,
        });
    }
    if (page * 15 >= res.data.totalUserCount) break;
  }
  return out;
}

/** Why the form cannot be sent: nobody chosen, no start or length, a start past or off the quarter hour. */
function shareProblem(chosen: number, startMs: number, duration: number): MessageKey | null {
  if (chosen === 0 || !Number.isFinite(startMs) || !duration) return editorKey('invalidShare');
  if (startMs < Date.now() - 60_000) return 'share.startPast';
  if (startMs % QUARTER !== 0) return 'share.startStep';
  return null;
}

/** What a refused share says; `again` when some learners already have a test of it (Assign again forces). */
function shareFailure(err: unknown, i18n: ReturnType<typeof useI18n>): { again: boolean; message: string } {
  if (err instanceof ApiError && err.errorCode === 'ALREADY_SHARED') {
    return {
      again: true,
      message: `${err.message.replace(/ Share again with force to give them another\.$/, '')} ${i18n.t('share.assignAgainHint')}`,
    };
  }
  return { again: false, message: editorText(i18n, messageOf(err, editorMessages.invalidShare)) };
}

interface ShareDialogProps {
  assessment: Summary | null;
  onClose: (shared: boolean) => void;
}

/**
 * 'Assign users': share an assessment of at least 10 questions with learners from a start time for some
 * hours. Each opening is a fresh form (keyed by the assessment): reset in an effect, the previous opening's
 * learners and ticks showed for a frame, and a click in that frame was lost when the reset ran.
 */
export function ShareDialog(props: ShareDialogProps) {
  return <ShareForm key={props.assessment?._id ?? ''} {...props} />;
}

function ShareForm({ assessment, onClose }: ShareDialogProps) {
  const i18n = useI18n();
  const { t } = i18n;
  const [learners, setLearners] = useState<Learner[] | null>(null);
  const [chosen, setChosen] = useState<Set<string>>(new Set());
  const [start, setStart] = useState(nextQuarter());
  const [duration, setDuration] = useState(1);
  const [error, setError] = useState('');
  const [busy, setBusy] = useState(false);
  /** The server said some chosen learners already have a test of it: Assign again sends force. */
  const [again, setAgain] = useState(false);

  useEffect(() => {
    if (!assessment) return;
    if (assessment.questionCount >= MIN_QUESTIONS_TO_SHARE) {
      allLearners()
        .then(setLearners)
        .catch(() => setError(currentTranslator().t(TABLE_FAILED.text)));
    }
  }, [assessment]);

  const tooFew = assessment ? assessment.questionCount < MIN_QUESTIONS_TO_SHARE : false;
  const submit = async () => {
    if (!assessment) return;
    const startMs = new Date(start).getTime();
    const problem = shareProblem(chosen.size, startMs, duration);
    if (problem) {
      setError(t(problem));
      return;
    }
    setBusy(true);
    setError('');
    try {
      const res = await client.call(assignAssessmentUsers, {
        params: { id: assessment._id },
        body: {
          userIds: [...chosen],
          createdAt: Date.now(),
          startTime: startMs,
          duration,
          ...(again ? { force: true } : {}),
        },
      });
      toast(
        t('share.shared', {
          count: res.data.created,
          date: formatDateTime(startMs, undefined, i18n.locale),
        }),
        { kind: 'success' },
      );
      onClose(true);
    } catch (err) {
      const failure = shareFailure(err, i18n);
      setAgain(failure.again);
      setError(failure.message);
    } finally {
      setBusy(false);
    }
  };

  return (
    <Dialog
      open={Boolean(assessment)}
      title={t('share.title')}
      onClose={() => onClose(false)}
      actions={
        <>
          <button type="button" className="btn btn-secondary" onClick={() => onClose(false)}>
            {t('common.cancel')}
          </button>
          {tooFew ? null : (
            <button type="button" className="btn" onClick={() => void submit()} disabled={busy}>
              {busy ? <Spinner /> : null} {again ? t('share.assignAgain') : t('userRoadmap.assign')}
            </button>
          )}
        </>
      }
    >
      {tooFew ? (
        <p className="alert alert-warning" role="alert">
          {t('share.tooFew', { count: assessment?.questionCount ?? 0 })}
        </p>
      ) : (
        <>
          <p>
            <Rich k="share.intro" values={{ name: assessment?.name ?? '' }} components={{ 0: <strong /> }} />
          </p>
          <LearnerChoice
            learners={learners}
            loading={!learners && !error}
            chosen={chosen}
            onChoose={setChosen}
            onPick={() => setAgain(false)}
          />
          <ShareTimeFields start={start} duration={duration} onStart={setStart} onDuration={setDuration} />
        </>
      )}
      {error ? (
        <p className="field-error" role="alert">
          {error}
        </p>
      ) : null}
    </Dialog>
  );
}

/** The learners to share with, each a checkbox, with 'Select all'. `onPick` runs when one is (un)ticked. */
function LearnerChoice({
  learners,
  loading,
  chosen,
  onChoose,
  onPick,
}: {
  learners: Learner[] | null;
  loading: boolean;
  chosen: Set<string>;
  onChoose: (chosen: Set<string>) => void;
  onPick: () => void;
}) {
  const { t } = useI18n();
  return (
    <fieldset>
      <legend>{t('share.learners')}</legend>
      {loading ? <Spinner label={t('share.loadingLearners')} /> : null}
      {learners?.length === 0 ? <p className="muted">{t('share.noLearners')}</p> : null}
      {learners?.length ? (
        <label className="check">
          <input
            type="checkbox"
            checked={chosen.size === learners.length}
            onChange={(e) => onChoose(e.target.checked ? new Set(learners.map((l) => l.id)) : new Set())}
          />
          <span>{t('share.selectAll')}</span>
        </label>
      ) : null}
      <div className="choice-list">
        {learners?.map((l) => (
          <label key={l.id} className="check">
            <input
              type="checkbox"
              checked={chosen.has(l.id)}
              onChange={(e) => {
                const next = new Set(chosen);
                if (e.target.checked) next.add(l.id);
                else next.delete(l.id);
                onChoose(next);
                onPick();
              }}
            />
            <span>{l.label}</span>
          </label>
        ))}
      </div>
    </fieldset>
  );
}

/** When the shared test opens (a quarter hour) and for how many hours. */
function ShareTimeFields({
  start,
  duration,
  onStart,
  onDuration,
}: {
  start: string;
  duration: number;
  onStart: (start: string) => void;
  onDuration: (hours: number) => void;
}) {
  const { t } = useI18n();
  const id = useId();
  return (
    <div className="form-grid">
      <div className="field">
        <label htmlFor={`${id}-start`}>{t('share.start')}</label>
        <input
          id={`${id}-start`}
          type="datetime-local"
          step={900}
          value={start}
          onChange={(e) => onStart(e.target.value)}
        />
        <span className="hint">{t('share.startHint')}</span>
      </div>
      <div className="field">
        <label htmlFor={`${id}-duration`}>{t('share.duration')}</label>
        <input
          id={`${id}-duration`}
          type="number"
          min={1}
          step={1}
          value={duration}
          onChange={(e) => onDuration(Math.max(0, Math.floor(Number(e.target.value))))}
        />
      </div>
    </div>
  );
}
