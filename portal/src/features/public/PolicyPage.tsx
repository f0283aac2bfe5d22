import '../../layout/public.css';
import { useI18n } from '@widgets/core/i18n';
import type { ReactNode } from 'react';
import { PublicPage, useDocumentTitle } from '../../layout/PublicChrome';

/** The frame of a policy page: title, date of the last update, contents, the sections. */
export function PolicyPage({
  title,
  updated,
  intro,
  sections,
}: {
  title: string;
  updated: string;
  intro: ReactNode;
  sections: { id: string; title: string; body: ReactNode }[];
}) {
  const { t, locale, dir } = useI18n();
  useDocumentTitle(title);
  return (
    <PublicPage>
      {/* the legal text is English, the language it is binding in; the page around it speaks the reader's */}
      {locale === 'en' ? null : (
        <p className="page-narrow alert alert-info policy-language" lang={locale}>
          {t('policy.englishOnly')}
        </p>
      )}
      <article className="page-narrow policy" aria-labelledby="policy-title" lang="en" dir="ltr">
        <h1 id="policy-title">{title}</h1>
        <p className="muted" lang={locale} dir={dir}>
          {t('policy.updated', { date: updated })}
        </p>
        {intro}
        <nav aria-labelledby="policy-contents" className="policy-contents">
          <h2 id="policy-contents" lang={locale} dir={dir}>
            {t('policy.contents')}
          </h2>
          <ol>
            {sections.map((s) => (
              <li key={s.id}>
                <a href={`#${s.id}`}>{s.title}</a>
              </li>
            ))}
          </ol>
        </nav>
        {sections.map((s, i) => (
          <section key={s.id} id={s.id} aria-labelledby={`${s.id}-title`} tabIndex={-1}>
            <h2 id={`${s.id}-title`}>
              {i + 1}. {s.title}
            </h2>
            {s.body}
          </section>
        ))}
      </article>
    </PublicPage>
  );
}
