/**
 * Wraps a widget as a custom element with @r2wc/react-to-web-component: kebab-case attributes parsed by
 * the widget's zod props schema, an open shadow root holding the design system and the widget's CSS,
 * `wm-*` events dispatched on the element, and its own API client pointed at the Waymark server
 * (`api-base`, by default the origin the script was loaded from).
 *
 * Two habits of r2wc are corrected here (DESIGN.md, Known ground): it renders on every attribute change,
 * which preact/compat does synchronously, so attributes set one after another arrived half-way — renders
 * are batched into a microtask; and it ignores empty attribute values — they are passed on as ''.
 */
import r2wc from '@r2wc/react-to-web-component';
import { createClient } from '@shared/client/client';
import { type ComponentType, useMemo } from 'react';
import baseCss from '../ui/styles.css?inline';
import elementCss from './element.css?inline';
import { CANCELABLE_EVENTS, type WidgetEventName, type WidgetHost, WidgetHostProvider } from './host';

const RENDER = Symbol.for('r2wc.render');
const PROPS = Symbol.for('r2wc.props');

/** What the element needs of a props schema: zod's, or its compiled form in the embed build. */
export interface PropsSchema {
  shape: object;
  safeParse(input: unknown): {
    success: boolean;
    error?: { issues: readonly { path: readonly PropertyKey[]; message: string }[] };
  };
}

export interface WidgetElementSpec<P> {
  /** The element's name, `wm-…`. */
  tag: string;
  component: ComponentType<P>;
  /** The component's props schema; its keys become kebab-case attributes. */
  props: PropsSchema;
  /** The widget's own CSS (imported with ?inline). */
  css: string;
}

const toCamel = (attr: string) => attr.replace(/-([a-z])/g, (_, c: string) => c.toUpperCase());
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

/** What each element carries into its render: its definition and its CSS, beside r2wc's props. */
interface Definition {
  spec: WidgetElementSpec<object>;
  css: string;
  /** Whether the CSS is adopted as a constructed stylesheet (else a <style> is rendered). */
  adopted: () => boolean;
}
const DEFINITION = '__wmDefinition';

/** The root rendered into each element's shadow root: the host (client, events, links) and the widget. */
function WidgetRoot(raw: Record<string, unknown>) {
  const { spec, css, adopted } = raw[DEFINITION] as Definition;
  const root = raw.container as unknown as ShadowRoot;
  const element = root.host as HTMLElement;
  const base = waymarkBase(raw.apiBase as string | undefined, import.meta.url);
  const host = useMemo<WidgetHost>(
    () => ({
      client: createClient({ baseUrl: `${base}/api`, device: 'WEB_APP' }),
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
    }),
    [base, element],
  );
  const input: Record<string, unknown> = {};
  for (const name of Object.keys(spec.props.shape)) {
    if (raw[name] !== undefined && raw[name] !== null) input[name] = raw[name];
  }
  const parsed = spec.props.safeParse(input);
  const Component = spec.component;
  return (
    <WidgetHostProvider host={host}>
      {adopted() ? null : <style>{css}</style>}
      {parsed.success || !parsed.error ? (
        <Component {...input} />
      ) : (
        <p className="alert alert-error" role="alert" part="error">
          {`<${spec.tag}>: ${describeIssues(parsed.error)}`}
        </p>
      )}
    </WidgetHostProvider>
  );
}

export function defineWidgetElement<P extends object>(spec: WidgetElementSpec<P>) {
  if (typeof customElements === 'undefined' || customElements.get(spec.tag)) return;
  const css = `${baseCss}\n${elementCss}\n${spec.css}`;
  let sheet: CSSStyleSheet | null | undefined;
  const propNames = [...Object.keys(spec.props.shape), 'apiBase'];
  const definition: Definition = {
    spec: spec as unknown as WidgetElementSpec<object>,
    css,
    adopted: () => Boolean(sheet),
  };

  const Base = r2wc(WidgetRoot, {
    shadow: 'open',
    props: Object.fromEntries(propNames.map((p) => [p, 'string'])) as Record<string, 'string'>,
  }) as unknown as { new (): HTMLElement; prototype: HTMLElement };
  const baseRender = (Base.prototype as unknown as Record<symbol, () => void>)[RENDER]!;

  class WaymarkElement extends Base {
    #scheduled = false;
    constructor() {
      super();
      (this as unknown as Record<symbol, Record<string, unknown>>)[PROPS]![DEFINITION] = definition;
      sheet ??= sheetFor(css);
      if (sheet && this.shadowRoot) this.shadowRoot.adoptedStyleSheets = [sheet];
    }
    /** Every render request of one task becomes one render, after the last attribute has arrived. */
    [RENDER]() {
      if (this.#scheduled) return;
      this.#scheduled = true;
      queueMicrotask(() => {
        this.#scheduled = false;
        baseRender.call(this);
      });
    }
    /** Every change counts, including an empty value and a removed attribute. */
    attributeChangedCallback(name: string, _old: string | null, value: string | null) {
      const props = (this as unknown as Record<symbol, Record<string, unknown>>)[PROPS]!;
      props[toCamel(name)] = value ?? undefined;
      (this as unknown as Record<symbol, () => void>)[RENDER]!();
    }
  }
  customElements.define(spec.tag, WaymarkElement);
}
