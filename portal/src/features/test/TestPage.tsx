/**
 * /test/{testLinkId} (mentor §2.14, learner §2): the test taker full screen under the product's brand,
 * opened in a new tab, with or without a session — the link id is the capability; when someone is signed
 * in, the portal's client carries their token and the server refuses another person's link. While the test
 * runs, leaving the page asks first.
 */
import '@widgets/test-taker/test-taker.css';
import './test-page.css';
import { TestTaker } from '@widgets/test-taker/TestTaker';
import { useEffect, useState } from 'react';
import { Link, useParams } from 'react-router';
import { PortalWidgets } from '../../components/PortalWidgets';
import { PRODUCT } from '../../lib/site';

/** Screens during which leaving would interrupt the test. */
const RUNNING = new Set(['starting', 'started', 'evaluating']);

const TITLES: Record<string, string> = {
  ready: 'Ready to Take Test?',
  started: 'Test in progress',
  'open-elsewhere': 'Open in another tab',
  'open-in-another-browser': 'Open in another browser',
  evaluating: 'Evaluating',
  score: 'Your Score',
  expired: 'Link Expired',
  completed: 'Test Completed',
  'not-yet-started': 'Assessment Not Yet Started',
  error: 'Something Went Wrong',
};

export default function TestPage() {
  const { id = '' } = useParams();
  const [state, setState] = useState('loading');
  const running = RUNNING.has(state);

  useEffect(() => {
    document.title = `${TITLES[state] ?? 'Test'} · ${PRODUCT}`;
    return () => {
      document.title = PRODUCT;
    };
  }, [state]);

  useEffect(() => {
    if (!running) return;
    const warn = (e: BeforeUnloadEvent) => {
      e.preventDefault();
      e.returnValue = '';
    };
    window.addEventListener('beforeunload', warn);
    return () => window.removeEventListener('beforeunload', warn);
  }, [running]);

  return (
    <div className="test-page">
      <header className="test-page-bar">
        {running ? (
          <span className="brand">
            <img src="/favicon.svg" alt="" width="32" height="32" />
            <span>{PRODUCT}</span>
          </span>
        ) : (
          <Link to="/" className="brand" aria-label={`${PRODUCT} home`}>
            <img src="/favicon.svg" alt="" width="32" height="32" />
            <span>{PRODUCT}</span>
          </Link>
        )}
      </header>
      <main id="main" className="test-page-main">
        <PortalWidgets
          onEvent={(type, detail) => {
            if (type === 'wm-state' && 'state' in detail && detail.state) setState(detail.state);
            return true;
          }}
        >
          <TestTaker key={id} linkId={id} headingLevel="1" />
        </PortalWidgets>
      </main>
    </div>
  );
}
