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
import { Rich, useI18n } from '../core/i18n';
import { useCall } from '../core/useCall';
import { failure } from '../embed/failure';
import { assetUrl, useWidgetHost } from '../embed/host';
import { PLACEHOLDER_MENTOR_IMAGE, PRODUCT_NAME } from '../embed/placeholder';
import { Loader } from '../ui/Loader';
import { Tabs } from '../ui/Tabs';
import { courseHours, formatDuration, resourceSeconds, spokenDuration } from './duration';
import { CourseDetailProps } from './props';
import { ResourceType, TaskPreview } from './TaskPreview';

type RoadmapT = zod.infer<typeof Roadmap>;

export function CourseDetail(input: CourseDetailProps) {
  const { roadmapId, headingLevel } = CourseDetailProps.parse(input);
  const host = useWidgetHost();
  const { t } = useI18n();
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
    if (roadmap.error) host.emit('wm-error', failure(t(selectionText.courseFailed), roadmap.error));
  }, [roadmap.error]);

  if (roadmap.error) {
    return <LoadFailed part="error">{t(selectionText.courseFailed)}</LoadFailed>;
  }
  if (!roadmap.data) return <Loader text={t('course.loading')} />;
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
  const { t } = useI18n();
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
              <Rich
                k="catalogue.curatedBy"
                values={{ name: curatorNames(r.authors) }}
                components={{ 0: <strong /> }}
              />
            </span>
            <span>
              <span className="visually-hidden">{t('catalogue.languageLabel')} </span>
              <span aria-hidden="true">{t('course.languageDot')} </span>
              {r.language.name}
            </span>
            <span>{r.subject.name}</span>
          </p>
          <p className="wm-price" part="price">
            {t('course.free')}
          </p>
          <button type="button" className="btn wm-select-course" part="select-button" onClick={onSelect}>
            {t('course.select')}
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
        <Sub id={`${titleId}-includes`}>{t('course.includes')}</Sub>
        <ul className="wm-features">
          <li>{t('course.lectures', { count: lectures })}</li>
          {hours.show ? <li>{t('course.hoursOnDemand', { hours: hours.hours })}</li> : null}
          <li>{t('course.lifetimeAccess')}</li>
          <li>{t('course.certificate')}</li>
        </ul>
      </section>

      <Curators authors={r.authors} id={`${titleId}-curators`} Sub={Sub} Minor={Minor} />

      <Tabs
        label={t('course.tabs')}
        selected={tab}
        onSelect={setTab}
        items={[
          {
            id: 'description',
            label: t('course.description'),
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
            label: t('course.curriculum'),
            content: (
              <Tabs
                label={t('course.curriculum')}
                selected={curriculumTab}
                onSelect={setCurriculumTab}
                items={[
                  { id: 'roadmap', label: t('course.roadmapTab'), content: <Sections roadmap={r} /> },
                  { id: 'task', label: t('course.taskTab'), content: <TaskPreview tasks={r.tasks} /> },
                ]}
              />
            ),
          },
        ]}
      />
    </article>
  );
}

/** The roadmap's curators, each with a photo and what they wrote about themselves; Waymark's team when none. */
function Curators({
  authors,
  id,
  Sub,
  Minor,
}: {
  authors: RoadmapT['authors'];
  id: string;
  Sub: 'h2' | 'h3';
  Minor: 'h3' | 'h4';
}) {
  const host = useWidgetHost();
  const { t } = useI18n();
  return (
    <section className="wm-curators" aria-labelledby={id} part="curators">
      <Sub id={id}>{t('course.curators', { count: authors.length })}</Sub>
      {authors.length === 0 ? (
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
            <p className="muted">{t('course.curatedByTeam', { product: PRODUCT_NAME })}</p>
          </div>
        </div>
      ) : (
        authors.map(({ authorId: a }) => (
          <div className="wm-curator" key={a._id}>
            <img
              className="wm-avatar wm-avatar-lg"
              src={assetUrl(host, a.profilePath) ?? PLACEHOLDER_MENTOR_IMAGE}
              data-placeholder={a.profilePath ? undefined : 'true'}
              alt={a.profilePath ? t('course.photoOf', { name: a.name }) : ''}
              width="72"
              height="72"
            />
            <div>
              <Minor className="wm-curator-name">{a.name}</Minor>
              {a.designation ? <p className="wm-designation">{a.designation}</p> : null}
              {a.shortDescription ? <p>{a.shortDescription}</p> : null}
              {a.longDescription ? (
                <details className="wm-more">
                  <summary>{t('course.moreAbout', { name: a.name })}</summary>
                  <p>{a.longDescription}</p>
                </details>
              ) : null}
            </div>
          </div>
        ))
      )}
    </section>
  );
}

/**
 * The roadmap's sections as an accordion: lectures and (when known) duration in the summary, resources
 * inside, each with its duration when it has one.
 */
function Sections({ roadmap }: { roadmap: RoadmapT }) {
  const { t } = useI18n();
  if (roadmap.sections.length === 0) return <p className="empty">{t('course.noSections')}</p>;
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
                {t('course.lectures', { count: n })}
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
                    <ResourceType type={res.type} />
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

/** '1h 2m' on screen, '1 hour 2 minutes' for screen readers (in the interface's language). */
function Duration({ seconds }: { seconds: number }) {
  const { locale } = useI18n();
  return (
    <>
      <span aria-hidden="true">{formatDuration(seconds, locale)}</span>
      <span className="visually-hidden">{spokenDuration(seconds, locale)}</span>
    </>
  );
}
