import type { MessageKey } from '@shared/i18n/keys';
import { checkRedirect } from '@shared/rules/navigation';
import { extensionReady } from '@widgets/core/extension';
import { useI18n } from '@widgets/core/i18n';
import { useSignalValue } from '@widgets/core/useSignal';
import { Loader } from '@widgets/ui/Loader';
import { useEffect, useState } from 'react';
import { useNavigate, useSearchParams } from 'react-router';
import { connectExtension, currentUser } from '../../lib/auth';

/** /check: signs the learner's extension in when it is present but signed out, then moves on. */
export default function CheckPage() {
  const user = useSignalValue(currentUser);
  const navigate = useNavigate();
  const [params] = useSearchParams();
  const { t } = useI18n();
  const [text, setText] = useState<MessageKey>('check.loading');
  useEffect(() => {
    if (user === 'loading') return;
    if (!user) {
      navigate('/', { replace: true });
      return;
    }
    let alive = true;
    (async () => {
      if (user.role === 'USER') {
        const ext = await extensionReady();
        if (ext.isPresent && !ext.isLogedIn) await connectExtension();
      }
      if (!alive) return;
      setText('check.redirecting');
      navigate(checkRedirect(user.role, params.get('redirectTo')), { replace: true });
    })().catch(() => alive && setText('check.userNotFound'));
    return () => {
      alive = false;
    };
  }, [user, navigate, params]);
  return (
    <div className="page-narrow">
      {text === 'check.userNotFound' ? <p role="alert">{t(text)}</p> : <Loader text={t(text)} />}
    </div>
  );
}
