import { displayPercentage, earnsResourceTick } from '@shared/rules/scoring';
import type { Resource, Section } from '@shared/schemas/catalogue';
import { useI18n } from '@widgets/core/i18n';
import type { z } from 'zod';

type SectionT = z.infer<typeof Section>;
type ResourceT = z.infer<typeof Resource>;

export function TypeBadge({ type }: { type: string }) {
  const { t } = useI18n();
  return (
    <span className={`badge ${type === 'WATCH' ? 'badge-primary' : 'badge-warning'}`}>
      {type === 'WATCH' ? t('resource.watchBadge') : t('resource.readBadge')}
    </span>
  );
}

/**
 * A resource's progress (learner §4, mentor §2.6): a green tick once any of its assessments scored 60 or
 * more, else a red mark, and the highest score when there is one.
 */
export function ResourceProgress({ score }: { score: number | undefined }) {
  const { t } = useI18n();
  const ok = earnsResourceTick(score);
  return (
    <>
      <span
        className={`tick ${ok ? 'tick-ok' : 'tick-bad'}`}
        role="img"
        aria-label={ok ? t('resource.passed') : t('resource.notPassed')}
      >
        {ok ? '✓' : '✗'}
      </span>
      {score !== undefined ? (
        <span className={`badge ${ok ? 'badge-success' : 'badge-danger'}`}>
          {t('resource.highestScore', { percent: displayPercentage(score) })}
        </span>
      ) : null}
    </>
  );
}

/** A resource's title, type and link; `plain` shows the title as text (completed roadmaps). */
export function ResourceRow({
  resource,
  plain,
  href,
  extra,
}: {
  resource: ResourceT;
  plain?: boolean;
  /** Where the link goes (the short link, so the extension tracks it); the resource's url by default. */
  href?: string;
  extra?: React.ReactNode;
}) {
  const { t } = useI18n();
  const title = resource.userTitle || resource.actualTitle;
  return (
    <li className="resource-row">
      <TypeBadge type={resource.type} />
      {plain ? (
        <span className="resource-title">{title}</span>
      ) : (
        <a className="resource-title" href={href ?? resource.url} target="_blank" rel="noopener noreferrer">
          {title}
          <span className="visually-hidden"> {t('common.opensInNewTab')}</span>
        </a>
      )}
      {extra}
    </li>
  );
}

/** Sections with their resources, as the roadmap tab shows them. */
export function SectionList<S extends SectionT>({
  sections,
  renderResource,
  renderSectionActions,
}: {
  sections: S[];
  renderResource?: (resource: ResourceT, section: S) => React.ReactNode;
  renderSectionActions?: (section: S) => React.ReactNode;
}) {
  const { t } = useI18n();
  if (sections.length === 0) return <p className="empty">{t('roadmap.noSections')}</p>;
  return (
    <ol className="section-list">
      {sections.map((section, i) => (
        <li key={section._id} className="card section-card">
          <div className="row">
            <h2>
              <span className="muted">{t('roadmap.sectionNumber', { number: i + 1 })}</span> {section.name}
            </h2>
            <div className="spacer" />
            {renderSectionActions?.(section)}
          </div>
          <ul className="resource-list">
            {section.resources.map((r) =>
              renderResource ? renderResource(r, section) : <ResourceRow key={r._id} resource={r} />,
            )}
          </ul>
        </li>
      ))}
    </ol>
  );
}
