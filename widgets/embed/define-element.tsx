/**
 * Wraps a widget as a custom element: kebab-case attributes (and properties of the camelCase names)
 * parsed by the widget's props schema, an open shadow root holding the design system and the widget's
 * CSS, `wm-*` events dispatched on the element, and its own API client pointed at the Waymark server
 * (`api-base`, by default the origin the script was loaded from).
 *
 * Rendering is Preact's own `render` into the shadow root (the embed build aliases React to Preact):
 * - every attribute change of one task becomes one render, in a microtask, after the last attribute has
 *   arrived (an element created and then given its attributes one by one renders once, with all of them);
 * - an empty attribute value is passed on as '' and a removed attribute as absent;
 * - the widget is unmounted when the element leaves the page — unless it comes back in the same task,
 *   as when a host's framework moves it, which keeps its state.
 * - its language is its own `lang` attribute, else the nearest `lang` around it (the host page's), else
 *   English: English is in the element's file, another language is fetched once, when first asked for, and
 *   the element renders in it once it has arrived; a change of `lang` on the element or on the page's
 *   `<html>` is followed (decision 040).
 * This replaced @r2wc/react-to-web-component, whose two habits (rendering synchronously per attribute
 * with preact/compat, ignoring empty values) had to be patched, and which cost 1.3 KB gzip per file.
 */
import { createClient } from '@shared/client/client';
import type { UiLocale } from '@shared/i18n/locales';
import type { Translator } from '@shared/i18n/translator';
import { type ComponentChild, render } from 'preact';
import { type ComponentType, useEffect, useMemo } from 'react';
import {
  type ElementMessages,
  elementLocale,
  I18nProvider,
  loadTranslator,
  readyTranslator,
} from '../core/i18n';
import baseCss from '../ui/styles.css?inline';
import elementCss from './element.css?inline';
import { checkedFetch } from './failure';
import { CANCELABLE_EVENTS, type WidgetEventName, type WidgetHost, WidgetHostProvider } from './host';

/** What the element needs of a props schema: zod's, or its compiled form in the embed build. */
export interface PropsSchema {
  shape: object;
  safeParse(input: unknown): {
    success: boolean;
    error?: { issues: readonly { path: readonly PropertyKey[]; message: string }[] };
  };
}

export interface WidgetElementSpec<P> {
  component: ComponentType<P>;
  /** The component's props schema; its keys become kebab-case attributes. */
  props: PropsSchema;
  /** The widget's own CSS (imported with ?inline). */
  css: string;
  /**
   * Properties with no attribute (values a page sets from script, such as an object): kept on the
   * element, passed to the component as props of the same name, applied when set before the upgrade.
   */
  properties?: readonly string[];
  /** The element's messages: `import * as messages from 'virtual:wm-messages'` in its entry. */
  messages: ElementMessages;
}

const toKebab = (prop: string) =>
  prop.replace(/([a-z0-9])([A-Z])/g, (_, a: string, b: string) => `${a}-${b.toLowerCase()}`);

/** The Waymark server: the api-base attribute, else the origin this script came from, else the page's. */
export function waymarkBase(apiBase: string | undefined, scriptUrl: string): string {
  const given = apiBase?.trim();
  if (given) return given.replace(/\/+$/, '').replace(/\/api$/, '');
  try {
    const origin = new URL(scriptUrl).origin;
    if (origin && origin !== 'null') return origin;
  } catch {
    // not a URL: fall through
  }
  return typeof window === 'undefined' ? '' : window.location.origin;
}

function sheetFor(css: string): CSSStyleSheet | null {
  try {
    if (typeof CSSStyleSheet === 'undefined' || !('replaceSync' in CSSStyleSheet.prototype)) return null;
    const sheet = new CSSStyleSheet();
    sheet.replaceSync(css);
    return sheet;
  } catch {
    return null;
  }
}

/** A readable list of what is wrong with the attributes. */
function describeIssues(error: NonNullable<ReturnType<PropsSchema['safeParse']>['error']>): string {
  return error.issues.map((i) => `${toKebab(String(i.path[0] ?? 'attributes'))} ${i.message}`).join('; ');
}

interface RootProps {
  spec: WidgetElementSpec<object>;
  element: HTMLElement;
  /** The attribute values by prop name (camelCase), api-base included. */
  values: Record<string, string | undefined>;
  /** The script-only properties (spec.properties) set on the element, by name. */
  properties: Record<string, unknown>;
  /** The CSS to render as a <style> where constructed stylesheets are not supported, else null. */
  inlineCss: string | null;
  /** The element's language. */
  i18n: Translator;
}

/** The root rendered into each element's shadow root: the host (client, events, links) and the widget. */
function WidgetRoot({ spec, element, values, properties, inlineCss, i18n }: RootProps) {
  const base = waymarkBase(values.apiBase, import.meta.url);
  const locale = i18n.locale;
  const given = Boolean(values.apiBase?.trim());
  const host = useMemo<WidgetHost>(
    () => ({
      client: createClient({
        baseUrl: `${base}/api`,
        device: 'WEB_APP',
        // the server's messages come in the element's language
        language: () => locale,
        // an answer that is not Waymark's API (no api-base in a bundle, a wrong one) says so (wm-error)
        fetch: checkedFetch(base, given, element.localName),
      }),
      siteBase: base,
      emit(type: WidgetEventName, detail: object) {
        return element.dispatchEvent(
          new CustomEvent(type, {
            detail,
            bubbles: true,
            composed: true,
            cancelable: CANCELABLE_EVENTS.includes(type),
          }),
        );
      },
      navigate(path: string) {
        window.location.assign(base + path);
      },
      // a partner page holds no Waymark session: selecting there always goes through the preview
      role: () => null,
      slots: true,
    }),
    [base, given, element, locale],
  );
  const input: Record<string, string> = {};
  for (const name of Object.keys(spec.props.shape)) {
    const value = values[name];
    if (value !== undefined) input[name] = value;
  }
  const parsed = spec.props.safeParse(input);
  const issues = [
    ...(parsed.success || !parsed.error ? [] : [describeIssues(parsed.error)]),
    ...(values.theme === undefined || THEMES.includes(values.theme)
      ? []
      : [`theme must be one of ${THEMES.join(', ')}`]),
  ];
  const invalid = issues.length ? `<${element.localName}>: ${issues.join('; ')}` : null;
  // told once per wrong value, as the message shown
  useEffect(() => {
    if (invalid) host.emit('wm-error', { status: 0, code: 'invalid-attribute', message: invalid });
  }, [invalid, host]);
  const Component = spec.component;
  return (
    <WidgetHostProvider host={host}>
      <I18nProvider value={i18n}>
        {inlineCss === null ? null : <style>{inlineCss}</style>}
        {/* the language and direction of everything inside, whatever the page's (a box of its own: none) */}
        <div className="wm-locale" lang={locale} dir={i18n.dir}>
          {invalid === null ? (
            <Component {...properties} {...input} />
          ) : (
            <p className="alert alert-error" role="alert" part="error">
              {invalid}
            </p>
          )}
        </div>
      </I18nProvider>
    </WidgetHostProvider>
  );
}

/**
 * The themes of the `theme` attribute (every element has it): the tokens' light or dark values, or the
 * visitor's setting; without it, the page's color-scheme (widgets/embed/element.css).
 */
export const THEMES: readonly string[] = ['light', 'dark', 'auto'];

/** The attribute names of a prop: its kebab-case name, and the lower-case form of its camelCase name. */
export function attributeNames(prop: string): { attribute: string; alias: string | null } {
  const attribute = toKebab(prop);
  const alias = prop.toLowerCase();
  return { attribute, alias: alias === attribute ? null : alias };
}

/** What an element class adds to HTMLElement: one string property per attribute. */
export type WidgetElementClass = CustomElementConstructor & { readonly observedAttributes: string[] };

const Base: typeof HTMLElement =
  typeof HTMLElement === 'undefined' ? (class {} as unknown as typeof HTMLElement) : HTMLElement;

/**
 * The translator for `locale`: `current` when it is that language's, else the language's when its file is
 * loaded; otherwise null, the file fetched (once) and `whenLoaded` called once it is here.
 */
function translatorNow(
  messages: WidgetElementSpec<object>['messages'],
  locale: UiLocale,
  current: Translator | null,
  whenLoaded: () => void,
): Translator | null {
  if (current?.locale === locale) return current;
  const ready = readyTranslator(messages, locale);
  if (ready) return ready;
  void loadTranslator(messages, locale).then(whenLoaded);
  return null;
}

/** Each attribute prop as a property of the element reflecting its attribute (its old alias read too). */
function reflectAttributes(proto: object, names: Map<string, ReturnType<typeof attributeNames>>) {
  for (const [name, { attribute, alias }] of names) {
    Object.defineProperty(proto, name, {
      configurable: true,
      enumerable: true,
      get(this: HTMLElement) {
        return this.getAttribute(attribute) ?? (alias ? this.getAttribute(alias) : null) ?? undefined;
      },
      set(this: HTMLElement, value: unknown) {
        if (alias) this.removeAttribute(alias);
        if (value === undefined || value === null) this.removeAttribute(attribute);
        else this.setAttribute(attribute, String(value));
      },
    });
  }
}

/**
 * The custom element class of a widget. Each element module declares `class WmX extends
 * widgetElement({...}) {}` under its documented header comment (the Custom Elements Manifest is read from
 * there) and defines it with `customElements.define`.
 *
 * Behaves as platform elements do:
 * - every attribute has a property of its camelCase name (`el.linkId` is `link-id`);
 * - a property set before the element was defined is applied when it is (the "upgrade property"
 *   pattern): the own property that shadowed the accessor is removed and set again through it;
 * - the lower-case form of a camelCase name (`linkid`) is read as the attribute too: React 19 and Vue 3
 *   write a camelCase prop as an attribute while the element is not yet defined (`linkId` → `linkid`);
 *   the kebab-case attribute wins when both are there, and setting the property removes the other one;
 * - values are read from the attributes when rendering, so nothing set in any order, before or during
 *   the upgrade, is missed.
 */
export function widgetElement<P extends object>(spec: WidgetElementSpec<P>): WidgetElementClass {
  const css = `${baseCss}\n${elementCss}\n${spec.css}`;
  let sheet: CSSStyleSheet | null | undefined;
  const attributeProps = [...Object.keys(spec.props.shape), 'apiBase', 'theme'];
  const scriptProps = spec.properties ?? [];
  const propNames = [...attributeProps, ...scriptProps];
  const names = new Map(attributeProps.map((p) => [p, attributeNames(p)]));
  const observed = [
    ...[...names.values()].flatMap(({ attribute, alias }) => (alias ? [attribute, alias] : [attribute])),
    'lang',
  ];

  class WaymarkElement extends Base {
    static observedAttributes = observed;
    #scheduled = false;
    #mounted = false;
    /** The translator last rendered with; a language still arriving renders once it is here. */
    #i18n: Translator | null = null;
    /** The script-only properties' values (spec.properties). */
    #properties: Record<string, unknown> = {};
    static {
      for (const name of scriptProps) {
        Object.defineProperty(WaymarkElement.prototype, name, {
          configurable: true,
          enumerable: true,
          get(this: WaymarkElement) {
            return this.#properties[name];
          },
          set(this: WaymarkElement, value: unknown) {
            this.#properties = { ...this.#properties, [name]: value };
            this.#schedule();
          },
        });
      }
    }

    constructor() {
      super();
      const root = this.shadowRoot ?? this.attachShadow({ mode: 'open' });
      sheet ??= sheetFor(css);
      if (sheet) root.adoptedStyleSheets = [sheet];
      this.#upgradeProperties();
    }
    /** Properties set on the element before it was defined hide the accessors: pass them through. */
    #upgradeProperties() {
      const self = this as unknown as Record<string, unknown>;
      for (const name of propNames) {
        if (Object.hasOwn(this, name)) {
          const value = self[name];
          delete self[name];
          self[name] = value;
        }
      }
    }
    connectedCallback() {
      // an element made before the definition, then moved into the page, upgrades here
      this.#upgradeProperties();
      watchPageLanguage(this);
      this.#schedule();
    }
    disconnectedCallback() {
      unwatchPageLanguage(this);
      this.#schedule();
    }
    /** The page's language changed: render again if it is this element's. */
    languageChanged() {
      this.#schedule();
    }
    /** Every change counts, including an empty value and a removed attribute. */
    attributeChangedCallback() {
      this.#schedule();
    }
    /** The attribute values by prop name (camelCase), api-base included. */
    #values(): Record<string, string | undefined> {
      const values: Record<string, string | undefined> = {};
      for (const [prop, { attribute, alias }] of names) {
        values[prop] = this.getAttribute(attribute) ?? (alias ? this.getAttribute(alias) : null) ?? undefined;
      }
      return values;
    }
    /** One render per task, after the last change: mounted while on the page, unmounted once off it. */
    #schedule() {
      if (this.#scheduled) return;
      this.#scheduled = true;
      queueMicrotask(() => {
        this.#scheduled = false;
        const root = this.shadowRoot!;
        if (this.isConnected) {
          const locale = elementLocale(this);
          const i18n = translatorNow(spec.messages, locale, this.#i18n, () => {
            if (elementLocale(this) === locale) this.#schedule();
          });
          // until the language's file is here the element stays as it was
          if (i18n) this.#i18n = i18n;
          else if (!this.#i18n) return;
          this.#mounted = true;
          const vnode = (
            <WidgetRoot
              spec={spec as unknown as WidgetElementSpec<object>}
              element={this}
              values={this.#values()}
              properties={{ ...this.#properties }}
              inlineCss={sheet ? null : css}
              i18n={this.#i18n}
            />
          );
          render(vnode as unknown as ComponentChild, root);
        } else if (this.#mounted) {
          this.#mounted = false;
          render(null, root);
        }
      });
    }
  }
  reflectAttributes(WaymarkElement.prototype, names);
  return WaymarkElement as unknown as WidgetElementClass;
}

/** The elements on the page that follow its language (they have no `lang` of their own). */
const followers = new Set<{ languageChanged(): void }>();
let pageLanguage: MutationObserver | null = null;

/** An element follows a change of `lang` on the page's `<html>` (a site's language switcher). */
function watchPageLanguage(element: { languageChanged(): void }) {
  followers.add(element);
  if (pageLanguage || typeof MutationObserver === 'undefined') return;
  pageLanguage = new MutationObserver(() => {
    for (const f of followers) f.languageChanged();
  });
  pageLanguage.observe(document.documentElement, { attributes: true, attributeFilter: ['lang'] });
}

function unwatchPageLanguage(element: { languageChanged(): void }) {
  followers.delete(element);
  if (followers.size === 0) {
    pageLanguage?.disconnect();
    pageLanguage = null;
  }
}
