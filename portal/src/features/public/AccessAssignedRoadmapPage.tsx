/**
 * /access-assigned-roadmap/{assignedRoadmapId} (mentor §2.12, §4): the preview of a roadmap just selected
 * or assessed — name, subject, how many sections and resources, each section's resources, and the result
 * of the prerequisite assessment it came from — with confetti and a chime. Before sign-in it offers the
 * sign-in buttons: signing in (as a learner) claims the roadmap with PUT /roadmap/assign-user-to-roadmap/{id}
 * and the person then goes where sign-in sends them. A learner whose roadmap it is opens it from here.
 */
import '../../layout/public.css';
import { ApiError } from '@shared/client/client';
import {
  type AssignedRoadmapPreview,
  assignedRoadmapNoAuth,
  assignUserToRoadmap,
} from '@shared/contract/catalogue';
import type { MessageKey } from '@shared/i18n/keys';
import { passesPrerequisite } from '@shared/rules/scoring';
import type { User } from '@shared/schemas/user';
import { client } from '@widgets/core/api';
import { Rich, useI18n } from '@widgets/core/i18n';
import { ASSESSED_ROADMAP_KEY, pending } from '@widgets/core/pending';
import { session } from '@widgets/core/session';
import { messageOf, useCall } from '@widgets/core/useCall';
import { useSignalValue } from '@widgets/core/useSignal';
import { Loader } from '@widgets/ui/Loader';
import { toast } from '@widgets/ui/Toast';
import { useEffect, useRef, useState } from 'react';
import { Link, useNavigate, useParams } from 'react-router';
import type { z } from 'zod';
import { AuthDialogs } from '../../components/sign-in/AuthDialogs';
import { ProviderButtons } from '../../components/sign-in/ProviderButtons';
import { useSignInFlow } from '../../components/sign-in/useSignInFlow';
import { PublicPage, useDocumentTitle } from '../../layout/PublicChrome';
import { currentUser } from '../../lib/auth';
import { currentTranslator } from '../../lib/i18n';
import { playChime, throwConfetti } from './celebrate';

type Preview = z.infer<typeof AssignedRoadmapPreview>;

export const CLAIM_FAILED = 'access.claimFailed' satisfies MessageKey;

export default function AccessAssignedRoadmapPage() {
  const { assignedRoadmapId = '' } = useParams();
  const navigate = useNavigate();
  const { t } = useI18n();
  const user = useSignalValue(currentUser);
  const flow = useSignInFlow();
  const celebrated = useRef(false);
  const preview = useCall(
    (signal) =>
      client.call(assignedRoadmapNoAuth, { params: { assignedRoadmapId }, signal }).then((r) => r.data),
    [assignedRoadmapId],
  );
  const roadmap = preview.data;
  useDocumentTitle(roadmap ? t('access.isReady', { name: roadmap.name }) : t('myRoadmap.yours'));

  // fetch errors: a 400 says why; anything else is 'Something went wrong'; then the login page
  useEffect(() => {
    const err = preview.error;
    if (!err) return;
    toast(
      err instanceof ApiError && err.status === 400
        ? err.message
        : currentTranslator().t('common.somethingWentWrong'),
      {
        kind: 'error',
      },
    );
    navigate('/login', { replace: true });
  }, [preview.error, navigate]);

  useEffect(() => {
    if (!roadmap || celebrated.current) return;
    celebrated.current = true;
    // remembered so that signing in any way (here, or e-mail on /login) claims it
    if (!session.peek() && !roadmap.claimed) pending.set(ASSESSED_ROADMAP_KEY, assignedRoadmapId);
    throwConfetti();
    playChime();
  }, [roadmap, assignedRoadmapId]);

  /** Claims the roadmap for the person who just signed in; never throws (sign-in goes on either way). */
  async function claim(): Promise<boolean> {
    try {
      await client.call(assignUserToRoadmap, { params: { id: assignedRoadmapId } });
      pending.clear(ASSESSED_ROADMAP_KEY);
      return true;
    } catch (err) {
      if (err instanceof ApiError) pending.clear(ASSESSED_ROADMAP_KEY);
      toast(messageOf(err, currentTranslator().t(CLAIM_FAILED)), { kind: 'error', ms: 8000 });
      return false;
    }
  }
  const afterSignIn = async (_user: User) => {
    await claim();
  };

  if (!roadmap) return <Loader text={t('access.loading')} />;
  const signedIn = user && user !== 'loading';
  return (
    <PublicPage>
      <div className="page-wide access-page">
        <AccessHero roadmap={roadmap} />

        {roadmap.prerequisiteResults ? <PrerequisiteResults results={roadmap.prerequisiteResults} /> : null}
        <div className="access-layout">
          <SectionsPreview sections={roadmap.sections} />

          <aside className="card access-signin" aria-labelledby="access-signin">
            {signedIn ? (
              <ClaimPanel
                roadmap={roadmap}
                assignedRoadmapId={assignedRoadmapId}
                isLearner={user.role === 'USER'}
                claim={claim}
              />
            ) : (
              <>
                <h2 id="access-signin">{t('access.signIn')}</h2>
                <p>{t('access.saved')}</p>
                <ProviderButtons
                  verb="Sign in"
                  disabled={flow.busy || roadmap.claimed}
                  onPick={(p) => void flow.withProvider(p, 'signup', { role: 'USER', afterSignIn })}
                />
                <p className="muted access-email">
                  <Rich
                    k="access.byEmail"
                    components={{ 0: <Link to="/login" />, 1: <Link to="/learner" /> }}
                  />
                </p>
              </>
            )}
          </aside>
        </div>
      </div>
      <AuthDialogs flow={flow} />
    </PublicPage>
  );
}

/** The roadmap's name, subject, and how many sections and resources it has. */
function AccessHero({ roadmap }: { roadmap: Preview }) {
  const { t } = useI18n();
  return (
    <section className="access-hero" aria-labelledby="access-title">
      <p className="eyebrow">{t('access.ready')}</p>
      <h1 id="access-title">{roadmap.name}</h1>
      <dl className="access-facts">
        <div>
          <dt>{t('column.subject')}</dt>
          <dd>{roadmap.subject.name}</dd>
        </div>
        <div>
          <dt>{t('access.sections')}</dt>
          <dd>{roadmap.sectionCount}</dd>
        </div>
        <div>
          <dt>{t('access.resources')}</dt>
          <dd>{roadmap.resourceCount}</dd>
        </div>
      </dl>
    </section>
  );
}

/** The result of the prerequisite assessment the roadmap came from, per roadmap assessed. */
function PrerequisiteResults({ results }: { results: NonNullable<Preview['prerequisiteResults']> }) {
  const { t } = useI18n();
  return (
    <section className="card access-result" aria-labelledby="access-result">
      <h2 id="access-result">{t('access.prerequisite')}</h2>
      <ul>
        {results.map((p) => {
          const passed = passesPrerequisite(p.percentage);
          return (
            <li key={p.roadmapId}>
              <span className="access-result-name">{p.roadmapName}</span>
              <strong className={`badge ${passed ? 'badge-success' : 'badge-warning'}`}>
                {t('access.percent', { percent: Math.floor(p.percentage) })}
              </strong>
              <span className="muted">{passed ? t('access.known') : t('access.first')}</span>
            </li>
          );
        })}
      </ul>
    </section>
  );
}

/** What the learner will learn: each section with its resources' titles. */
function SectionsPreview({ sections }: { sections: Preview['sections'] }) {
  const { t } = useI18n();
  return (
    <section className="card" aria-labelledby="access-sections">
      <h2 id="access-sections">{t('access.willLearn')}</h2>
      <ol className="access-sections">
        {sections.map((s, i) => (
          // biome-ignore lint/suspicious/noArrayIndexKey: the preview's sections have no ids and never reorder
          <li key={`${i}-${s.name}`}>
            <h3>{s.name}</h3>
            <ul>
              {s.resources.map((r, j) => (
                // biome-ignore lint/suspicious/noArrayIndexKey: the preview's resources have no ids and never reorder
                <li key={`${j}-${r.actualTitle}`}>{r.actualTitle}</li>
              ))}
            </ul>
          </li>
        ))}
      </ol>
    </section>
  );
}

/** Signed in: open the roadmap if it is theirs, add it if a learner may, or say why not. */
function ClaimPanel({
  roadmap,
  assignedRoadmapId,
  isLearner,
  claim,
}: {
  roadmap: Preview;
  assignedRoadmapId: string;
  isLearner: boolean;
  claim: () => Promise<boolean>;
}) {
  const { t } = useI18n();
  const navigate = useNavigate();
  const [claiming, setClaiming] = useState(false);
  return (
    <>
      <h2 id="access-signin">{roadmap.mine ? t('access.inYours') : t('access.addIt')}</h2>
      {roadmap.mine ? (
        <Link className="btn btn-block" to={`/my-roadmap/${assignedRoadmapId}`}>
          {t('access.openMine')}
        </Link>
      ) : roadmap.claimed ? (
        <p>{t('access.claimed')}</p>
      ) : isLearner ? (
        <button
          type="button"
          className="btn btn-block"
          disabled={claiming}
          onClick={async () => {
            setClaiming(true);
            const ok = await claim();
            setClaiming(false);
            if (ok) navigate(`/my-roadmap/${assignedRoadmapId}`);
          }}
        >
          {claiming ? t('access.adding') : t('access.add')}
        </button>
      ) : (
        <p>{t('access.learnersOnly')}</p>
      )}
      <p>
        <Link to="/my-roadmaps">{t('getLink.toMyRoadmaps')}</Link>
      </p>
    </>
  );
}
