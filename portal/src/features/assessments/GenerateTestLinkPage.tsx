/**
 * /generate-testlink/{id} (learner §2, mentor §2.1): a link sent to the learner for one resource. Creates a
 * test link for that resource and e-mails it to the learner (POST /testlink/resource/{id}/generate
 * ?send=email), then shows /get-link. A failed test of that resource still in its retake cool-down is told
 * with the time it can be taken again.
 */
import { generateResourceTestLink } from '@shared/contract/assessments';
import { startFailureMessage } from '@widgets/assessments/retake';
import { client } from '@widgets/core/api';
import { useI18n } from '@widgets/core/i18n';
import { Loader } from '@widgets/ui/Loader';
import { useEffect, useState } from 'react';
import { Link, useNavigate, useParams } from 'react-router';

/** One request per resource id even when React runs the effect twice (development's strict mode). */
const inFlight = new Map<string, Promise<unknown>>();

function generate(id: string) {
  let request = inFlight.get(id);
  if (!request) {
    request = client.call(generateResourceTestLink, { params: { id }, query: { send: 'email' } });
    inFlight.set(id, request);
    request.finally(() => setTimeout(() => inFlight.delete(id), 1000)).catch(() => undefined);
  }
  return request;
}

export default function GenerateTestLinkPage() {
  const { id = '' } = useParams();
  const navigate = useNavigate();
  const i18n = useI18n();
  const { t } = i18n;
  const [error, setError] = useState<string | null>(null);
  // biome-ignore lint/correctness/useExhaustiveDependencies: generated once per resource, said in the language of the moment
  useEffect(() => {
    let alive = true;
    generate(id).then(
      () => alive && navigate('/get-link', { replace: true }),
      (err) => {
        if (!alive) return;
        console.error('Something went wrong', err);
        setError(startFailureMessage(err, t('getLink.generateFailed'), i18n));
      },
    );
    return () => {
      alive = false;
    };
  }, [id, navigate]);

  if (!error) return <Loader text={t('getLink.generating')} />;
  return (
    <div className="page-narrow">
      <h1>{t('getLink.yourLink')}</h1>
      <p className="alert alert-error" role="alert">
        {error}
      </p>
      <Link className="btn" to="/my-roadmaps">
        {t('getLink.toMyRoadmaps')}
      </Link>
    </div>
  );
}
