/**
 * A roadmap's public course page (mentor §2.10): name, curators, language, 'Free', image, what the
 * course includes, curator profiles, Description and Curriculum (Roadmap sections and Tasks), and
 * Select Course, which opens the same selection dialog as the catalogue.
 */
import * as Catalogue from '@shared/contract/catalogue';
import type { Roadmap } from '@shared/schemas/catalogue';
import { LoadFailed } from '@widgets/ui/LoadFailed';
import { useEffect, useId, useState } from 'react';
import type { z as zod } from 'zod';
import { curatorNames } from '../catalogue/curators';
import { selectionText, useRoadmapSelection } from '../catalogue/selection';
import { useCall } from '../core/useCall';
import { failure } from '../embed/failure';
import { assetUrl, useWidgetHost } from '../embed/host';
import { PLACEHOLDER_MENTOR_IMAGE, PRODUCT_NAME } from '../embed/placeholder';
import { Loader } from '../ui/Loader';
import { Tabs } from '../ui/Tabs';
import { courseHours, formatDuration, resourceSeconds, spokenDuration } from './duration';
import { CourseDetailProps } from './props';
import { TaskPreview } from './TaskPreview';

type RoadmapT = zod.infer<typeof Roadmap>;

export function CourseDetail(input: CourseDetailProps) {
  const { roadmapId, headingLevel } = CourseDetailProps.parse(input);
  const host = useWidgetHost();
  const selection = useRoadmapSelection();
  const roadmap = useCall(
    (signal) =>
      host.client.call(Catalogue.roadmapNoAuth, { params: { roadmapId }, signal }).then((r) => r.data),
    [host.client, roadmapId],
  );
  // biome-ignore lint/correctness/useExhaustiveDependencies: reported once per load
  useEffect(() => {
    if (!roadmap.data) return;
    host.emit('wm-load', { roadmapId, name: roadmap.data.name });
    host.emit('wm-ready', { roadmapId });
  }, [roadmap.data]);
  // biome-ignore lint/correctness/useExhaustiveDependencies: reported once per failure
  useEffect(() => {
    if (roadmap.error) host.emit('wm-error', failure(selectionText.courseFailed, roadmap.error));
  }, [roadmap.error]);

  if (roadmap.error) {
    return <LoadFailed part="error">{selectionText.courseFailed}</LoadFailed>;
  }
  if (!roadmap.data) return <Loader text="Loading the course…" />;
  return (
    <>
      <Course
        roadmap={roadmap.data}
        headingLevel={headingLevel === '1' ? 1 : 2}
        onSelect={() => selection.select(roadmap.data!._id, roadmap.data!.name)}
      />
      {selection.dialog}
    </>
  );
}

function Course({
  roadmap: r,
  headingLevel,
  onSelect,
}: {
  roadmap: RoadmapT;
  headingLevel: 1 | 2;
  onSelect: () => void;
}) {
  const host = useWidgetHost();
  const titleId = useId();
  const [tab, setTab] = useState('description');
  const [curriculumTab, setCurriculumTab] = useState('roadmap');
  const Title = headingLevel === 1 ? 'h1' : 'h2';
  const Sub = headingLevel === 1 ? 'h2' : 'h3';
  const Minor = headingLevel === 1 ? 'h3' : 'h4';
  const image = assetUrl(host, r.imgPath);
  const hours = courseHours(r.duration);
  const lectures = r.totalLectures;
  return (
    <article className="wm-course" part="course" aria-labelledby={titleId}>
      <header className="wm-course-hero" part="hero">
        <div className="wm-course-intro">
          <Title id={titleId} className="wm-course-title" part="title">
            {r.name}
          </Title>
          <p className="wm-course-meta">
            <span>
              Curated By <strong>{curatorNames(r.authors)}</strong>
            </span>
            <span>
              <span className="visually-hidden">Language: </span>
              <span aria-hidden="true">Language · </span>
              {r.language.name}
            </span>
            <span>{r.subject.name}</span>
          </p>
          <p className="wm-price" part="price">
            Free
          </p>
          <button type="button" className="btn wm-select-course" part="select-button" onClick={onSelect}>
            Select Course
          </button>
        </div>
        <div className="wm-course-image">
          {image ? (
            <img src={image} alt="" width="640" height="360" />
          ) : (
            <span className="wm-card-fallback" aria-hidden="true">
              {r.name.slice(0, 1)}
            </span>
          )}
        </div>
      </header>

      <section className="wm-course-includes" aria-labelledby={`${titleId}-includes`} part="features">
        <Sub id={`${titleId}-includes`}>This course includes</Sub>
        <ul className="wm-features">
          <li>
            {lectures} {lectures === 1 ? 'lecture' : 'lectures'}
          </li>
          {hours.show ? <li>{hours.hours} hours on-demand content</li> : null}
          <li>Lifetime access</li>
          <li>Certificate of Completion</li>
        </ul>
      </section>

      <section className="wm-curators" aria-labelledby={`${titleId}-curators`} part="curators">
        <Sub id={`${titleId}-curators`}>{r.authors.length > 1 ? 'Curators' : 'Curator'}</Sub>
        {r.authors.length === 0 ? (
          <div className="wm-curator">
            <img
              className="wm-avatar wm-avatar-lg"
              src={PLACEHOLDER_MENTOR_IMAGE}
              alt=""
              width="72"
              height="72"
            />
            <div>
              <Minor className="wm-curator-name">{PRODUCT_NAME}</Minor>
              <p className="muted">Curated by the {PRODUCT_NAME} team.</p>
            </div>
          </div>
        ) : (
          r.authors.map(({ authorId: a }) => (
            <div className="wm-curator" key={a._id}>
              <img
                className="wm-avatar wm-avatar-lg"
                src={assetUrl(host, a.profilePath) ?? PLACEHOLDER_MENTOR_IMAGE}
                data-placeholder={a.profilePath ? undefined : 'true'}
                alt={a.profilePath ? `Photo of ${a.name}` : ''}
                width="72"
                height="72"
              />
              <div>
                <Minor className="wm-curator-name">{a.name}</Minor>
                {a.designation ? <p className="wm-designation">{a.designation}</p> : null}
                {a.shortDescription ? <p>{a.shortDescription}</p> : null}
                {a.longDescription ? (
                  <details className="wm-more">
                    <summary>More about {a.name}</summary>
                    <p>{a.longDescription}</p>
                  </details>
                ) : null}
              </div>
            </div>
          ))
        )}
      </section>

      <Tabs
        label="Course"
        selected={tab}
        onSelect={setTab}
        items={[
          {
            id: 'description',
            label: 'Description',
            content: (
              <div className="wm-description">
                {r.description
                  .split(/\n{2,}/)
                  .filter(Boolean)
                  .map((p) => (
                    <p key={p}>{p}</p>
                  ))}
              </div>
            ),
          },
          {
            id: 'curriculum',
            label: 'Curriculum',
            content: (
              <Tabs
                label="Curriculum"
                selected={curriculumTab}
                onSelect={setCurriculumTab}
                items={[
                  { id: 'roadmap', label: 'Roadmap', content: <Sections roadmap={r} /> },
                  { id: 'task', label: 'Task', content: <TaskPreview tasks={r.tasks} /> },
                ]}
              />
            ),
          },
        ]}
      />
    </article>
  );
}

/**
 * The roadmap's sections as an accordion: lectures and (when known) duration in the summary, resources
 * inside, each with its duration when it has one.
 */
function Sections({ roadmap }: { roadmap: RoadmapT }) {
  if (roadmap.sections.length === 0) return <p className="empty">No sections yet.</p>;
  return (
    <div className="wm-sections" part="sections">
      {roadmap.sections.map((s, i) => {
        const n = s.resources.length;
        // reading resources have no duration: a section's is shown only when known (over 0.1 hours)
        const known = courseHours(s.duration).show;
        return (
          <details key={s._id} className="wm-section" open={i === 0}>
            <summary>
              <span className="wm-section-name">{s.name}</span>
              <span className="wm-section-meta">
                {n} {n === 1 ? 'lecture' : 'lectures'}
                {known ? (
                  <>
                    {' · '}
                    <Duration seconds={s.duration} />
                  </>
                ) : null}
              </span>
            </summary>
            <ul className="wm-resources">
              {s.resources.map((res) => {
                const seconds = resourceSeconds(res);
                return (
                  <li key={res._id}>
                    <span className={`badge ${res.type === 'WATCH' ? 'badge-primary' : 'badge-warning'}`}>
                      {res.type}
                    </span>
                    <span className="wm-resource-title">{res.userTitle || res.actualTitle}</span>
                    {seconds > 0 ? (
                      <span className="wm-resource-time">
                        <Duration seconds={seconds} />
                      </span>
                    ) : null}
                  </li>
                );
              })}
            </ul>
          </details>
        );
      })}
    </div>
  );
}

/** '1h 2m' on screen, '1 hour 2 minutes' for screen readers. */
function Duration({ seconds }: { seconds: number }) {
  return (
    <>
      <span aria-hidden="true">{formatDuration(seconds)}</span>
      <span className="visually-hidden">{spokenDuration(seconds)}</span>
    </>
  );
}
