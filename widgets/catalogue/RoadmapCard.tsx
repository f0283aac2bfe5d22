import type { RoadmapSummary } from '@shared/schemas/catalogue';
import { useId } from 'react';
import { Rich, useI18n } from '../core/i18n';
import { assetUrl, isPlainClick, useWidgetHost } from '../embed/host';
import { PLACEHOLDER_MENTOR_IMAGE } from '../embed/placeholder';
import { curatedBy } from './curators';

export type CardRoadmap = Pick<RoadmapSummary, '_id' | 'name' | 'imgPath' | 'authors' | 'language'>;

export const courseDetailPath = (roadmapId: string) => `/course-detail/${encodeURIComponent(roadmapId)}`;

/**
 * One roadmap of the catalogue (mentor §2.9): image (to the course page), the first curator's badge and
 * photo (a placeholder when there is none), name, 'Curated By', language and Select.
 */
export function RoadmapCard({
  roadmap,
  onSelect,
}: {
  roadmap: CardRoadmap;
  onSelect: (roadmap: CardRoadmap) => void;
}) {
  const host = useWidgetHost();
  const { t } = useI18n();
  const titleId = useId();
  const path = courseDetailPath(roadmap._id);
  const href = host.siteBase + path;
  const image = assetUrl(host, roadmap.imgPath);
  const author = roadmap.authors[0]?.authorId;
  const photo = assetUrl(host, author?.profilePath);
  return (
    <li className="wm-card" part="card">
      <article aria-labelledby={titleId}>
        <a
          className="wm-card-media"
          part="card-image"
          href={href}
          aria-label={image ? undefined : t('catalogue.courseDetailsOf', { name: roadmap.name })}
          onClick={(e) => {
            if (!isPlainClick(e)) return;
            e.preventDefault();
            if (host.emit('wm-open-course', { roadmapId: roadmap._id, href })) host.navigate(path);
          }}
        >
          {image ? (
            <img
              src={image}
              alt={t('catalogue.courseDetailsOf', { name: roadmap.name })}
              loading="lazy"
              width="400"
              height="225"
            />
          ) : (
            <span className="wm-card-fallback" aria-hidden="true">
              {roadmap.name.slice(0, 1)}
            </span>
          )}
        </a>
        <div className="wm-card-author" part="card-author">
          <img
            className="wm-avatar"
            src={photo ?? PLACEHOLDER_MENTOR_IMAGE}
            data-placeholder={photo ? undefined : 'true'}
            alt=""
            width="48"
            height="48"
          />
          <span className="wm-author-badge">{t('catalogue.curator')}</span>
        </div>
        <div className="wm-card-body">
          <h3 id={titleId} className="wm-card-title" part="card-title">
            {roadmap.name}
          </h3>
          <p className="wm-curated">
            <Rich
              k="catalogue.curatedBy"
              values={{ name: curatedBy(roadmap.authors) }}
              components={{ 0: <strong /> }}
            />
          </p>
          <p className="wm-language">
            <svg viewBox="0 0 24 24" width="16" height="16" aria-hidden="true" focusable="false">
              <path
                fill="currentColor"
                d="M12 2a10 10 0 1 0 0 20 10 10 0 0 0 0-20Zm6.9 6h-3a15.7 15.7 0 0 0-1.3-3.9A8 8 0 0 1 18.9 8ZM12 4a13.7 13.7 0 0 1 1.9 4h-3.8A13.7 13.7 0 0 1 12 4ZM4.3 14a8 8 0 0 1 0-4h3.4a16.5 16.5 0 0 0 0 4Zm.8 2h3a15.7 15.7 0 0 0 1.3 3.9A8 8 0 0 1 5.1 16Zm3-8h-3a8 8 0 0 1 4.3-3.9A15.7 15.7 0 0 0 8.1 8ZM12 20a13.7 13.7 0 0 1-1.9-4h3.8A13.7 13.7 0 0 1 12 20Zm2.3-6H9.7a14.6 14.6 0 0 1 0-4h4.6a14.6 14.6 0 0 1 0 4Zm.3 5.9a15.7 15.7 0 0 0 1.3-3.9h3a8 8 0 0 1-4.3 3.9Zm1.7-5.9a16.5 16.5 0 0 0 0-4h3.4a8 8 0 0 1 0 4Z"
              />
            </svg>
            <span className="visually-hidden">{t('catalogue.languageLabel')} </span>
            {roadmap.language.name}
          </p>
          <button
            type="button"
            className="btn wm-select"
            part="select-button"
            aria-describedby={titleId}
            onClick={() => onSelect(roadmap)}
          >
            {t('catalogue.select')}
          </button>
        </div>
      </article>
    </li>
  );
}
