import { ApiError } from '@shared/client/client';
import { cliApprove } from '@shared/contract/auth';
import { client } from '@widgets/core/api';
import { Spinner } from '@widgets/ui/Loader';
import { useState } from 'react';
import { useSearchParams } from 'react-router';

/** Approving a terminal sign-in (`waymark login`) as the signed-in person. */
export default function CliLoginPage() {
  const [params] = useSearchParams();
  const [code, setCode] = useState(params.get('code') ?? '');
  const [state, setState] = useState<'idle' | 'busy' | 'done' | 'error'>('idle');
  const [message, setMessage] = useState('');
  return (
    <div className="page-narrow">
      <h1>Sign in to the Waymark terminal</h1>
      {state === 'done' ? (
        <p className="alert alert-success" role="status">
          The terminal is signed in. You can close this tab and go back to it.
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
              setMessage(err instanceof ApiError ? err.message : 'Something went wrong.');
            }
          }}
        >
          <p>Check that this code is the one your terminal shows, then approve.</p>
          <div className="field">
            <label htmlFor="cli-code">Code</label>
            <input
              id="cli-code"
              className="input code-input"
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
            {state === 'busy' ? <Spinner /> : null} Approve
          </button>
        </form>
      )}
    </div>
  );
}
