/**
 * /lti/app/{launch id} (decision 045): what a launch from an LMS opens, inside the LMS's frame — a learner's
 * test (taken here, its result and award shown here), the instructor's view of the course's learners, or a
 * greeting. The session is the launch's own, in memory: a reload (no code left) asks to open the activity
 * again from the course.
 */
import '@widgets/test-taker/test-taker.css';
import { ApiError } from '@shared/client/client';
import { useI18n } from '@widgets/core/i18n';
import { TestTaker } from '@widgets/test-taker/TestTaker';
import { Loader } from '@widgets/ui/Loader';
import { useEffect, useState } from 'react';
import { PortalWidgets } from '../../components/PortalWidgets';
import { PRODUCT } from '../../lib/site';
import { CourseView } from './CourseView';
import { type Launch, launchOfPage } from './exchange';
import './lti.css';

type View =
  | { kind: 'loading' }
  | { kind: 'failed'; message: string | null }
  | { kind: 'open'; launch: Launch };

export default function LtiLaunchPage() {
  const { t } = useI18n();
  const [view, setView] = useState<View>({ kind: 'loading' });

  useEffect(() => {
    let live = true;
    launchOfPage().then(
      (launch) => {
        if (live) setView(launch ? { kind: 'open', launch } : { kind: 'failed', message: null });
      },
      (err: unknown) => {
        if (live) setView({ kind: 'failed', message: err instanceof ApiError ? err.message : null });
      },
    );
    return () => {
      live = false;
    };
  }, []);

  return (
    <div className="lti-page">
      <header className="lti-page-bar">
        <img src="/favicon.svg" alt="" width="28" height="28" />
        <span>{PRODUCT}</span>
      </header>
      <main id="main" className="lti-page-main">
        {view.kind === 'loading' ? (
          <Loader />
        ) : view.kind === 'failed' ? (
          <div className="card" role="alert">
            <h1>{t('lti.failedTitle')}</h1>
            <p>{view.message ?? t('lti.reopen')}</p>
          </div>
        ) : (
          <Opened launch={view.launch} />
        )}
      </main>
    </div>
  );
}

function Opened({ launch }: { launch: Launch }) {
  const { t } = useI18n();
  // the test's Home stays inside the frame: the launch's own greeting, not Waymark's site
  const [home, setHome] = useState(false);
  const course = launch.contextTitle ?? t('lti.yourCourse');
  if (launch.opens.page === 'test' && !home) {
    return (
      <PortalWidgets
        onEvent={(type) => {
          if (type !== 'wm-home') return true;
          setHome(true);
          return false;
        }}
      >
        <TestTaker linkId={launch.opens.linkId} headingLevel="1" />
      </PortalWidgets>
    );
  }
  if (launch.role === 'INSTRUCTOR') {
    return <CourseView launchToken={launch.launchToken} course={course} tenant={launch.tenantName} />;
  }
  return (
    <div className="card">
      <h1>{t('lti.welcome', { name: launch.session?.user.name ?? '' })}</h1>
      <p>
        {launch.opens.page === 'test'
          ? t('lti.backToCourse', { course })
          : t('lti.nothingLinked', { tenant: launch.tenantName })}
      </p>
    </div>
  );
}
