/**
 * The interface's language in components: an element's language (its lang, the nearest lang, English),
 * languages fetched once and English behind them, and rich text whose values stay text.
 */

import { english, loaders } from 'virtual:wm-messages';
import { createTranslator } from '@shared/i18n/translator';
import { cleanup, render } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import {
  type ElementMessages,
  elementLocale,
  I18nProvider,
  loadTranslator,
  Rich,
  readyTranslator,
  useI18n,
} from './i18n';

afterEach(() => {
  cleanup();
  document.body.replaceChildren();
  document.documentElement.removeAttribute('lang');
});

describe("an element's language", () => {
  it('is its own lang, else the nearest lang around it, else the page’s, else English', () => {
    document.body.innerHTML = `
      <div lang="es-MX"><p><wm-x id="a"></wm-x><wm-x id="b" lang="ar"></wm-x><wm-x id="c" lang="fr"></wm-x></p></div>
      <wm-x id="d"></wm-x>`;
    const at = (id: string) => elementLocale(document.getElementById(id)!);
    expect([at('a'), at('b'), at('c'), at('d')]).toEqual(['es', 'ar', 'en', 'en']);
    document.documentElement.lang = 'ar-EG';
    expect(at('d')).toBe('ar');
  });

  it('comes from a file fetched once, with English behind it; a file that fails leaves English', async () => {
    const es = vi.fn(loaders.es);
    const messages: ElementMessages = {
      english: { only: 'Only in English', 'catalogue.heading': english['catalogue.heading']! },
      loaders: { es, ar: () => Promise.reject(new Error('offline')) },
    };
    expect(readyTranslator(messages, 'es')).toBeNull();
    const [first, second] = await Promise.all([
      loadTranslator(messages, 'es'),
      loadTranslator(messages, 'es'),
    ]);
    expect(es).toHaveBeenCalledTimes(1);
    expect(first).toBe(second);
    expect(readyTranslator(messages, 'es')).toBe(first);
    expect(first.t('catalogue.heading')).toBe('Elige una ruta de aprendizaje');
    expect(first.t('only' as never)).toBe('Only in English');
    expect(first.dir).toBe('ltr');
    const arabic = await loadTranslator(messages, 'ar');
    expect(arabic.locale).toBe('en');
    expect(readyTranslator(messages, 'en')?.t('catalogue.heading')).toBe('Select Roadmap');
  });
});

function Lectures({ n }: { n: number }) {
  const { t, dir } = useI18n();
  return <p dir={dir}>{t('course.lectures', { count: n })}</p>;
}

describe('messages in components', () => {
  it('puts the language’s words, plurals and direction in', async () => {
    const ar = createTranslator('ar', (await loaders.ar()).default, english);
    const view = render(
      <I18nProvider value={ar}>
        {[0, 1, 2, 3, 11, 100].map((n) => (
          <Lectures key={n} n={n} />
        ))}
      </I18nProvider>,
    );
    const texts = [...view.container.querySelectorAll('p')].map((p) => p.textContent);
    expect(texts).toEqual(['لا دروس', 'درس واحد', 'درسان', '3 دروس', '11 درسًا', '100 درس']);
    expect(view.container.querySelector('p')?.getAttribute('dir')).toBe('rtl');
  });

  it('renders tags as the components given and values as text, never as tags', () => {
    const view = render(
      <Rich
        k="catalogue.curatedBy"
        values={{ name: '<0>Ada</0> & <b>Co</b>' }}
        components={{ 0: <strong /> }}
      />,
    );
    expect(view.container.innerHTML).toBe(
      'Curated By <strong>&lt;0&gt;Ada&lt;/0&gt; &amp; &lt;b&gt;Co&lt;/b&gt;</strong>',
    );
  });
});
