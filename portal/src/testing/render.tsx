/**
 * The one way the portal's component tests render a page or a component (vitest, happy-dom): inside a
 * memory router opened at `url`, the page mounted on its route pattern (so it reads its params), beside
 * the places it may go (`routes`: path → what stands for that page), with the toasts and a probe of the
 * current location when asked, in English or in the language of `translator` (`await translatorIn('ar')`).
 * Each test's render is unmounted after it (cleanup).
 */
import { english, loaders } from 'virtual:wm-messages';
import type { UiLocale } from '@shared/i18n/locales';
import { createTranslator, type Translator } from '@shared/i18n/translator';
import { cleanup, render } from '@testing-library/react';
import { I18nProvider } from '@widgets/core/i18n';
import { Toasts } from '@widgets/ui/Toast';
import type { ReactNode } from 'react';
import { MemoryRouter, Route, Routes, useLocation } from 'react-router';
import { afterEach } from 'vitest';

afterEach(cleanup);

export interface RenderOptions {
  /** Where the router opens (default `/`). */
  url?: string;
  /** The route pattern the page is mounted on (default: `url` without its query). */
  path?: string;
  /** Other routes: the pages the one under test may go to, each as a stand-in. */
  routes?: Record<string, ReactNode>;
  /** Render the toasts too (default false: only tests about toasts see them). */
  toasts?: boolean;
  /** Render `<p data-testid="where">` with the current path and query (read it with `where()`). */
  location?: boolean;
  /** The language to render in (default: English, the tests' fallback). */
  translator?: Translator;
}

/** The portal's translator of `locale`, over its real catalogue (English behind it, as in the portal). */
export async function translatorIn(locale: Exclude<UiLocale, 'en'>): Promise<Translator> {
  return createTranslator(locale, (await loaders[locale]()).default, english);
}

function Where() {
  const l = useLocation();
  return <p data-testid="where">{`${l.pathname}${l.search}`}</p>;
}

export function renderPortal(ui: ReactNode, options: RenderOptions = {}) {
  const url = options.url ?? '/';
  const path = options.path ?? url.split('?')[0]!;
  const page = (
    <MemoryRouter initialEntries={[url]}>
      <Routes>
        <Route path={path} element={ui} />
        {Object.entries(options.routes ?? {}).map(([p, element]) => (
          <Route key={p} path={p} element={element} />
        ))}
      </Routes>
      {options.location ? <Where /> : null}
      {options.toasts ? <Toasts /> : null}
    </MemoryRouter>
  );
  return render(options.translator ? <I18nProvider value={options.translator}>{page}</I18nProvider> : page);
}
