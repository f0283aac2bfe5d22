import { ApiError } from '@shared/client/client';
import { cliApprove } from '@shared/contract/auth';
import { client } from '@widgets/core/api';
import { useI18n } from '@widgets/core/i18n';
import { Spinner } from '@widgets/ui/Loader';
import { useState } from 'react';
import { useSearchParams } from 'react-router';

/** Approving a terminal sign-in (`waymark login`) as the signed-in person. */
export default function CliLoginPage() {
  const { t } = useI18n();
  const [params] = useSearchParams();
  const [code, setCode] = useState(params.get('code') ?? '');
  const [state, setState] = useState<'idle' | 'busy' | 'done' | 'error'>('idle');
  const [message, setMessage] = useState('');
  return (
    <div className="page-narrow">
      <h1>{t('cli.title')}</h1>
      {state === 'done' ? (
        <p className="alert alert-success" role="status">
          {t('cli.done')}
        </p>
      ) : (
        <form
          className="card"
          onSubmit={async (e) => {
            e.preventDefault();
            setState('busy');
            try {
              await client.call(cliApprove, { body: { userCode: code } });
              setState('done');
            } catch (err) {
              setState('error');
              setMessage(err instanceof ApiError ? err.message : t('common.somethingWentWrong'));
            }
          }}
        >
          <p>{t('cli.check')}</p>
          <div className="field">
            <label htmlFor="cli-code">{t('cli.code')}</label>
            <input
              id="cli-code"
              className="input code-input"
              dir="ltr"
              value={code}
              onChange={(e) => setCode(e.target.value.toUpperCase())}
            />
          </div>
          {state === 'error' ? (
            <p className="field-error" role="alert">
              {message}
            </p>
          ) : null}
          <button type="submit" className="btn" disabled={state === 'busy' || !code}>
            {state === 'busy' ? <Spinner /> : null} {t('cli.approve')}
          </button>
        </form>
      )}
    </div>
  );
}
