import { checkRedirect } from '@shared/rules/navigation';
import { extensionReady } from '@widgets/core/extension';
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
  const [text, setText] = useState('Please wait loading...');
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
      setText('Redirecting...');
      navigate(checkRedirect(user.role, params.get('redirectTo')), { replace: true });
    })().catch(() => alive && setText('User not found'));
    return () => {
      alive = false;
    };
  }, [user, navigate, params]);
  return (
    <div className="page-narrow">
      {text === 'User not found' ? <p role="alert">User not found</p> : <Loader text={text} />}
    </div>
  );
}
