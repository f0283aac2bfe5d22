/**
 * A partner's React 19 app (built by tests/partner-apps/build.mjs, driven by tests/e2e/partner.spec.ts):
 * client-side routes that create and remove the elements, typed by the package's React typings. The
 * elements are defined only after the first render, so React sets their camelCase props on elements that
 * are not defined yet — as on a page whose element file loads late.
 */
import type {} from '@waymark/elements/react';
import { StrictMode, useState } from 'react';
import { createRoot } from 'react-dom/client';
import { BrowserRouter, Link, Route, Routes, useNavigate, useParams } from 'react-router';

declare global {
  interface Window {
    WAYMARK_URL: string;
    wmEvents: { type: string; detail: unknown }[];
  }
}
const api = window.WAYMARK_URL;
window.wmEvents = [];
/** The award this run's learner earned: the test opens /react/?award=<link id>. */
const awardId = new URLSearchParams(location.search).get('award') ?? '';
const record = (e: CustomEvent) => window.wmEvents.push({ type: e.type, detail: e.detail });
setTimeout(() => void import('@waymark/elements'), 300);

function CatalogueView() {
  const navigate = useNavigate();
  const [count, setCount] = useState<number | null>(null);
  return (
    <>
      <h1>Courses in our React app</h1>
      <wm-roadmap-catalogue
        apiBase={api}
        limit="2"
        heading="Pick a course"
        onwm-load={(e) => {
          record(e);
          setCount(e.detail.count);
        }}
        onwm-open-course={(e) => {
          e.preventDefault();
          navigate(`/react/course/${e.detail.roadmapId}`);
        }}
        onwm-select={record}
      />
      <p data-testid="count">{count === null ? 'Loading…' : `${count} courses shown`}</p>
    </>
  );
}

function CourseView() {
  const { id } = useParams();
  const [name, setName] = useState('');
  return (
    <>
      <h1>{name || 'Course'}</h1>
      <wm-course-detail
        roadmapId={id}
        headingLevel="2"
        apiBase={api}
        onwm-load={(e) => {
          record(e);
          setName(e.detail.name);
        }}
      />
    </>
  );
}

function AwardView() {
  const { id } = useParams();
  return (
    <>
      <h1>Our learner's award</h1>
      <wm-award linkId={id} kind="feather" apiBase={api} onwm-load={record} onwm-error={record} />
      {/* the typings know the values of kind */}
      {/* @ts-expect-error 'medal' is not a kind of award */}
      <wm-award hidden linkId={id} kind="medal" apiBase={api} />
    </>
  );
}

function App() {
  return (
    <BrowserRouter>
      <nav aria-label="Partner">
        <Link to="/react/">Courses</Link> <Link to={`/react/award/${awardId}`}>Award</Link>
      </nav>
      <main>
        <Routes>
          <Route path="/react/" element={<CatalogueView />} />
          <Route path="/react/course/:id" element={<CourseView />} />
          <Route path="/react/award/:id" element={<AwardView />} />
        </Routes>
      </main>
    </BrowserRouter>
  );
}

createRoot(document.getElementById('root')!).render(
  <StrictMode>
    <App />
  </StrictMode>,
);
