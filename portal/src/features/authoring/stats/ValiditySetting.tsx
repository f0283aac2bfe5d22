/**
 * In the builder's side column: how long the certificates of this assessment stay valid (decision 037). A
 * change applies to certificates earned from then on; those earned before keep their end.
 */
import { assessmentValidity, setAssessmentValidity } from '@shared/contract/analysis';
import { VALIDITY_MONTHS } from '@shared/rules/validity';
import { client } from '@widgets/core/api';
import { useI18n } from '@widgets/core/i18n';
import { messageOf, useCall } from '@widgets/core/useCall';
import { Spinner } from '@widgets/ui/Loader';
import { toast } from '@widgets/ui/Toast';
import { useEffect, useId, useState } from 'react';

export function ValiditySetting({ assessmentId }: { assessmentId: string }) {
  const { t } = useI18n();
  const id = useId();
  const current = useCall(
    (signal) => client.call(assessmentValidity, { params: { assessmentId }, signal }).then((r) => r.data),
    [assessmentId],
  );
  const [chosen, setChosen] = useState('');
  const [saving, setSaving] = useState(false);
  const months = current.data?.months ?? null;
  useEffect(() => setChosen(months === null ? '' : String(months)), [months]);
  const choices: (number | null)[] = [null, ...VALIDITY_MONTHS];
  if (months !== null && !choices.includes(months)) choices.push(months);
  const save = async () => {
    setSaving(true);
    try {
      await client.call(setAssessmentValidity, {
        params: { assessmentId },
        body: { months: chosen === '' ? null : Number(chosen) },
      });
      toast(t('stats.validitySaved'), { kind: 'success', ms: 4000 });
      current.reload();
    } catch (err) {
      toast(messageOf(err, t('stats.validityFailed')), { kind: 'error' });
    } finally {
      setSaving(false);
    }
  };
  return (
    <div className="field validity-setting">
      <label htmlFor={id}>{t('stats.validFor')}</label>
      <div className="row">
        <select id={id} value={chosen} onChange={(e) => setChosen(e.target.value)} disabled={!current.data}>
          {choices.map((m) => (
            <option key={m ?? 'none'} value={m === null ? '' : String(m)}>
              {t('stats.period', { months: m ?? 0 })}
            </option>
          ))}
        </select>
        <button
          type="button"
          className="btn btn-secondary"
          onClick={() => void save()}
          disabled={saving || !current.data || chosen === (months === null ? '' : String(months))}
        >
          {saving ? <Spinner /> : null} {t('stats.save')}
        </button>
      </div>
      <p className="muted">{t('stats.validityHelp')}</p>
    </div>
  );
}
