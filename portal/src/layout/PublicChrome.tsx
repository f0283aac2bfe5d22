/**
 * The frame of the public pages: skip link, nav bar (sticky after 100 px of scrolling), footer with
 * contact details and links, and the scroll-to-top arrow (mentor §2.9, §2.10).
 */
import { homeOf } from '@shared/rules/navigation';
import { Rich, useI18n } from '@widgets/core/i18n';
import { useSignalValue } from '@widgets/core/useSignal';
import { type ReactNode, useEffect, useState } from 'react';
import { Link } from 'react-router';
import { LanguageSwitcher } from '../components/LanguageSwitcher';
import { currentUser } from '../lib/auth';
import {
  ADDRESS_LINES,
  COPYRIGHT_YEAR,
  PRODUCT,
  SCROLL_THRESHOLD_PX,
  SUPPORT_EMAIL,
  SUPPORT_HOURS,
} from '../lib/site';

/** Whether the page has been scrolled further than `px`. */
export function useScrolledPast(px: number): boolean {
  const [past, setPast] = useState(() => typeof window !== 'undefined' && window.scrollY > px);
  useEffect(() => {
    let frame = 0;
    const onScroll = () => {
      cancelAnimationFrame(frame);
      frame = requestAnimationFrame(() => setPast(window.scrollY > px));
    };
    onScroll();
    window.addEventListener('scroll', onScroll, { passive: true });
    return () => {
      cancelAnimationFrame(frame);
      window.removeEventListener('scroll', onScroll);
    };
  }, [px]);
  return past;
}

export function useDocumentTitle(title: string | null | undefined) {
  useEffect(() => {
    if (title) document.title = `${title} · ${PRODUCT}`;
    return () => {
      document.title = PRODUCT;
    };
  }, [title]);
}

export const prefersReducedMotion = () =>
  typeof window !== 'undefined' && window.matchMedia?.('(prefers-reduced-motion: reduce)').matches === true;

export function SkipLink() {
  const { t } = useI18n();
  return (
    <a className="skip-link" href="#main">
      {t('nav.skip')}
    </a>
  );
}

export function Brand() {
  const { t } = useI18n();
  return (
    <Link to="/" className="brand" id="top-brand" aria-label={t('nav.home')}>
      <img src="/favicon.svg" alt="" width="32" height="32" />
      <span>{PRODUCT}</span>
    </Link>
  );
}

/**
 * The nav bar. On the landing page: section links, LOGIN and GET STARTED; on other public pages: Login
 * and Register. A signed-in person gets a link to their home instead.
 */
export function PublicHeader({ variant, links }: { variant: 'landing' | 'page'; links?: ReactNode }) {
  const { t } = useI18n();
  const user = useSignalValue(currentUser);
  const sticky = useScrolledPast(SCROLL_THRESHOLD_PX);
  const signedIn = user && user !== 'loading';
  return (
    <header className={`public-nav${sticky ? ' is-sticky' : ''}`} data-sticky={sticky ? 'true' : 'false'}>
      <div className="public-nav-inner">
        <Brand />
        {links ? (
          <nav aria-label={t('nav.sections')} className="public-nav-links">
            {links}
          </nav>
        ) : null}
        <div className="spacer" />
        <div className="public-nav-actions">
          <LanguageSwitcher />
          {signedIn ? (
            <Link className="btn" to={homeOf(user.role)}>
              {t('nav.toDashboard')}
            </Link>
          ) : variant === 'landing' ? (
            <>
              <Link className="btn btn-secondary" to="/login">
                {t('nav.loginCaps')}
              </Link>
              <Link className="btn" to="/who-i-am">
                {t('nav.getStarted')}
              </Link>
            </>
          ) : (
            <>
              <Link className="btn btn-secondary" to="/login">
                {t('auth.login')}
              </Link>
              <Link className="btn" to="/who-i-am">
                {t('nav.register')}
              </Link>
            </>
          )}
        </div>
      </div>
    </header>
  );
}

/** The arrow back to the top, shown after 100 px of scrolling; focus goes back to the top of the page. */
export function ScrollToTop() {
  const { t } = useI18n();
  const shown = useScrolledPast(SCROLL_THRESHOLD_PX);
  if (!shown) return null;
  return (
    <button
      type="button"
      className="scroll-top"
      aria-label={t('nav.toTop')}
      onClick={() => {
        window.scrollTo({ top: 0, behavior: prefersReducedMotion() ? 'auto' : 'smooth' });
        document.getElementById('top-brand')?.focus({ preventScroll: true });
      }}
    >
      <svg viewBox="0 0 24 24" width="24" height="24" aria-hidden="true" focusable="false">
        <path fill="currentColor" d="M12 5.6 4.3 13.3l1.4 1.4L11 9.4V20h2V9.4l5.3 5.3 1.4-1.4z" />
      </svg>
    </button>
  );
}

export function PublicFooter() {
  const { t } = useI18n();
  return (
    <footer className="public-footer">
      <div className="public-footer-inner">
        <section aria-labelledby="footer-contact">
          <h2 id="footer-contact" className="footer-title">
            {t('footer.contact')}
          </h2>
          <address>
            {ADDRESS_LINES.map((line) => (
              <span key={line} className="footer-line">
                {line}
              </span>
            ))}
            <span className="footer-line">
              <Rich
                k="footer.email"
                values={{ email: SUPPORT_EMAIL }}
                components={{
                  0: (
                    <a href={`mailto:${SUPPORT_EMAIL}`} dir="ltr">
                      {SUPPORT_EMAIL}
                    </a>
                  ),
                }}
              />
            </span>
            <span className="footer-line">{t('footer.hours', { hours: t(SUPPORT_HOURS) })}</span>
          </address>
        </section>
        <nav aria-labelledby="footer-links">
          <h2 id="footer-links" className="footer-title">
            {t('footer.links')}
          </h2>
          <ul className="footer-links">
            <li>
              <Link to="/landing">{t('common.home')}</Link>
            </li>
            <li>
              <Link to="/terms_and_conditions">{t('footer.terms')}</Link>
            </li>
            <li>
              <Link to="/refund_policy">{t('footer.refund')}</Link>
            </li>
            <li>
              <Link to="/privacy_policy">{t('footer.privacy')}</Link>
            </li>
            <li>
              <a href="/support" target="_blank" rel="noopener">
                {t('footer.support')}
                <span className="visually-hidden"> {t('common.opensInNewTab')}</span>
              </a>
            </li>
          </ul>
        </nav>
        <section aria-labelledby="footer-about">
          <h2 id="footer-about" className="footer-title">
            {PRODUCT}
          </h2>
          <p>{t('footer.about')}</p>
        </section>
      </div>
      <p className="copyright">{t('footer.copyright', { year: COPYRIGHT_YEAR, product: PRODUCT })}</p>
    </footer>
  );
}

/** A public page: skip link, nav bar, the page, footer, scroll-to-top. */
export function PublicPage({
  children,
  variant = 'page',
  links,
}: {
  children: ReactNode;
  variant?: 'landing' | 'page';
  links?: ReactNode;
}) {
  return (
    <div className="public">
      <SkipLink />
      <PublicHeader variant={variant} links={links} />
      <main id="main" className="public-main" tabIndex={-1}>
        {children}
      </main>
      <PublicFooter />
      <ScrollToTop />
    </div>
  );
}
