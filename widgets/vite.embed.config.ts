/**
 * The embed build (DESIGN.md, Widgets): Vite library mode, React aliased to Preact, one ES module per
 * element in dist/widgets (`<widget>.js`, each defining its custom element) and the code they share in
 * chunks of their own, so a page that embeds three elements downloads that code once:
 * `runtime-<hash>.js` holds what every element needs (Preact and its hooks, the element wrapper, the API
 * client, the props validator, the design system's CSS); modules that only some elements share (the
 * catalogue's card and selection dialog, used by the course page) get a chunk of their own; a dynamic
 * import (the dashboard's chart) is a file loaded only where it is needed.
 * `node widgets/build-embed.mjs` runs it (WM_WIDGETS lists the widgets of one build: all of them, or one
 * at a time for `--standalone`, the self-contained files `bench/widgets.mjs` measures as its baseline) and
 * writes the manifests, the typings and the package.
 *
 * Size measures keep each file near its budget (docs/PERFORMANCE.md, `node bench/widgets.mjs`): the
 * widgets' zod props schemas are compiled to their JSON Schema and checked by
 * widgets/embed/light-schema.ts, and the contract modules the widgets import their calls from become
 * their calls without schemas (widgets/embed/light-contract.ts), so zod stays out of the files (the
 * build fails if it comes back); React's names come from Preact without
 * preact/compat (widgets/embed/react-on-preact.ts); the design system's portal-only sections (forms,
 * toasts) are left out and each file keeps only the CSS rules whose classes the code that can run with it
 * names (widgets/embed/prune-css.ts); the output is minified fully (library mode keeps whitespace
 * otherwise). Every style sheet of a shadow root has its `rem` lengths turned into pixels
 * (widgets/embed/shadow-css.ts).
 */
import { createHash } from 'node:crypto';
import { fileURLToPath } from 'node:url';
import { defineConfig, type Plugin, type UserConfig } from 'vite';
import * as z from 'zod/mini';
import type { Router } from '../shared/contract/define';
import { contractModules } from '../shared/contract/registry';
import * as awardProps from './award/props';
import * as catalogueProps from './catalogue/props';
import * as courseDetailProps from './course-detail/props';
import * as dashboardProps from './dashboard/props';
import { lightCallModule, lightContract } from './embed/light-contract';
import { pruneCss, wordsOf } from './embed/prune-css';
import { remToPx, tokensFromPage } from './embed/shadow-css';
import widgets from './embed/widgets.json' with { type: 'json' };
import * as testTakerProps from './test-taker/props';

const r = (p: string) => fileURLToPath(new URL(p, import.meta.url));

/** Each widget: its output file name → its entry and its element (also read by build-embed.mjs). */
export const EMBED_WIDGETS = widgets as Record<string, { entry: string; tag: string }>;

/** The props modules, by path: every export is a zod schema. */
const PROPS_MODULES: Record<string, Record<string, unknown>> = {
  [r('./award/props.ts')]: awardProps,
  [r('./catalogue/props.ts')]: catalogueProps,
  [r('./course-detail/props.ts')]: courseDetailProps,
  [r('./dashboard/props.ts')]: dashboardProps,
  [r('./test-taker/props.ts')]: testTakerProps,
};

/** Replaces each props module by light schemas built from the zod schemas' JSON Schema. */
export function propsWithoutZod(): Plugin {
  return {
    name: 'waymark:props-without-zod',
    enforce: 'pre',
    load(id) {
      const mod = PROPS_MODULES[id.split('?')[0]!];
      if (!mod) return null;
      const lines = [`import { lightSchema } from ${JSON.stringify(r('./embed/light-schema.ts'))};`];
      for (const [name, schema] of Object.entries(mod)) {
        if (!(schema instanceof z.ZodMiniObject)) {
          throw new Error(
            `${id}: export ${name} is not a zod object schema (props modules hold schemas only)`,
          );
        }
        lines.push(`export const ${name} = lightSchema(${JSON.stringify(z.toJSONSchema(schema))});`);
      }
      return lines.join('\n');
    },
  };
}

/** The contract modules' routers, by the module's path (`shared/contract/<name>.ts`). */
const CONTRACT_MODULES: Record<string, readonly Router[]> = Object.fromEntries(
  Object.entries(contractModules).map(([name, mod]) => [r(`../shared/contract/${name}.ts`), mod]),
);

/**
 * Replaces each contract module a widget imports by its calls without their zod schemas, each call a
 * module of its own (`<module path>?call=<name>`, so the runtime group sees it under shared/).
 */
export function contractWithoutZod(): Plugin {
  const CALL = '?call=';
  return {
    name: 'waymark:contract-without-zod',
    enforce: 'pre',
    resolveId(source) {
      return source.startsWith('\0') && source.includes(CALL) ? source : null;
    },
    load(id) {
      if (id.startsWith('\0') && id.includes(CALL)) {
        const [path, name] = id.slice(1).split(CALL) as [string, string];
        return lightCallModule(name, CONTRACT_MODULES[path]!.find((router) => name in router)![name]!);
      }
      const path = id.split('?')[0]!;
      const mod = CONTRACT_MODULES[path];
      return mod ? lightContract(mod, (name) => `\0${path}${CALL}${name}`) : null;
    },
  };
}

/** Fails the build when zod reaches an element's files (through a props or contract module, or any other way). */
export function withoutZod(): Plugin {
  return {
    name: 'waymark:without-zod',
    enforce: 'post',
    generateBundle(_options, bundle) {
      for (const file of Object.values(bundle)) {
        if (file.type !== 'chunk') continue;
        const zod = file.moduleIds.filter((id) => /[\\/]node_modules[\\/]zod[\\/]/.test(id));
        if (zod.length)
          this.error(`${file.fileName} carries zod (${zod[0]}): import calls and props schemas only`);
      }
    },
  };
}

/**
 * Sections of the design system that no widget uses. (Tables and the pager are the dashboard's; lean
 * widgets keep only the rules whose classes their code names, so the others do not carry them.)
 */
const PORTAL_ONLY_SECTIONS = new Set(['forms', 'toasts']);

/** Drops the portal-only sections (`/* ---- name *\/`) of widgets/ui/styles.css from the inline CSS. */
export function widgetStylesOnly(): Plugin {
  const stylesFile = r('./ui/styles.css');
  return {
    name: 'waymark:widget-styles-only',
    enforce: 'pre',
    transform(code, id) {
      if (id.split('?')[0] !== stylesFile) return null;
      const parts = code.split(/(?=\/\* ---- )/);
      const kept = parts.filter((part) => {
        const name = part.match(/^\/\* ---- ([^*]+?) \*\//)?.[1];
        return !name || !PORTAL_ONLY_SECTIONS.has(name.trim());
      });
      return { code: kept.join(''), map: null };
    },
  };
}

/**
 * Every inline style sheet (`*.css?inline`, what goes into a shadow root): `rem` lengths become pixels,
 * and the design tokens are read from the page first (their defaults become fallbacks).
 */
export function shadowCss(): Plugin {
  return {
    name: 'waymark:shadow-css',
    enforce: 'pre',
    transform(code, id) {
      if (!/\.css\?(.*&)?inline\b/.test(id)) return null;
      return { code: tokensFromPage(remToPx(code)), map: null };
    },
  };
}

/**
 * Each `*.css?inline` module exports a marker instead of its CSS; once every file is made, each marker
 * becomes the CSS's rules that can match, given the words of the code that can run beside it: the files
 * of every element whose page loads the file holding the marker (its static imports and the files it may
 * load later). Source maps are not shifted for it; only `bench/widgets.mjs --sources` reads them.
 */
export function leanCss(): Plugin {
  // by the CSS's own hash, not by the order modules were transformed in (which varies from run to run):
  // the files' names are hashed before the markers are filled, so the same sources must give the same
  // markers, or a release rebuilt gets new names and hashes and every pinned snippet breaks
  const sheets = new Map<string, string>();
  const marker = (key: string) => `globalThis.__wmCss_${key}`;
  const fill = (code: string, used: ReadonlySet<string>) =>
    code.replace(/globalThis\.__wmCss_([0-9a-f]+)/g, (_, key: string) =>
      JSON.stringify(pruneCss(sheets.get(key)!, used)),
    );
  return {
    name: 'waymark:lean-css',
    enforce: 'post',
    transform(code, id) {
      if (!/\.css\?inline$/.test(id)) return null;
      const css = code.match(/^export default ("(?:[^"\\]|\\.)*");?\s*$/)?.[1];
      if (!css) this.error(`${id}: expected the inline CSS module Vite makes (export default "…")`);
      const text = JSON.parse(css) as string;
      const key = createHash('sha256').update(text).digest('hex').slice(0, 16);
      sheets.set(key, text);
      return { code: `export default ${marker(key)};`, map: null };
    },
    generateBundle(_options, bundle) {
      const chunks = new Map(
        Object.values(bundle)
          .filter((f) => f.type === 'chunk')
          .map((c) => [c.fileName, c]),
      );
      const words = new Map([...chunks].map(([name, c]) => [name, wordsOf(c.code)]));
      const used = new Map<string, Set<string>>();
      for (const entry of [...chunks.values()].filter((c) => c.isEntry)) {
        const reach = new Set<string>();
        const walk = (name: string) => {
          if (reach.has(name) || !chunks.has(name)) return;
          reach.add(name);
          const c = chunks.get(name)!;
          for (const next of [...c.imports, ...c.dynamicImports]) walk(next);
        };
        walk(entry.fileName);
        const all = new Set<string>();
        for (const name of reach) for (const w of words.get(name)!) all.add(w);
        for (const name of reach) {
          const set = used.get(name) ?? new Set<string>();
          for (const w of all) set.add(w);
          used.set(name, set);
        }
      }
      for (const [name, c] of chunks) c.code = fill(c.code, used.get(name) ?? words.get(name)!);
    },
  };
}

/**
 * What every element needs, in `runtime-<hash>.js` whatever the elements of a page: Preact, the element
 * wrapper and its host, the API client, the props validator, the design system (its CSS and components),
 * the cross-widget plumbing and the shared rules — each as soon as two elements use it. Kept general on
 * purpose: an element's own code (its folder) never moves here because another happens to share it; that
 * gets a chunk of its own (the catalogue's selection dialog, which the course page also shows).
 */
const RUNTIME = [/\/node_modules\/preact\//, /\/widgets\/(embed|ui|core)\//, /\/shared\//];

export default defineConfig((): UserConfig => {
  const names = (process.env.WM_WIDGETS ?? Object.keys(EMBED_WIDGETS).join(',')).split(',');
  for (const name of names) {
    if (!EMBED_WIDGETS[name])
      throw new Error(`Unknown widget ${name}: one of ${Object.keys(EMBED_WIDGETS).join(', ')}`);
  }
  return {
    publicDir: false,
    logLevel: 'warn',
    plugins: [
      propsWithoutZod(),
      contractWithoutZod(),
      widgetStylesOnly(),
      shadowCss(),
      leanCss(),
      withoutZod(),
    ],
    resolve: {
      alias: [
        { find: /^react$/, replacement: r('./embed/react-on-preact.ts') },
        // the widgets use signals as values (read through useSignalValue), never signals-react's hooks
        { find: /^@preact\/signals-react$/, replacement: '@preact/signals-core' },
        { find: /^react-dom\/client$/, replacement: 'preact/compat/client' },
        { find: /^react-dom$/, replacement: 'preact/compat' },
        { find: /^react\/jsx-runtime$/, replacement: 'preact/jsx-runtime' },
        { find: /^react\/jsx-dev-runtime$/, replacement: 'preact/jsx-runtime' },
        { find: /^@shared\//, replacement: `${r('../shared')}/` },
        { find: /^@widgets\//, replacement: `${r('.')}/` },
      ],
    },
    define: { 'process.env.NODE_ENV': JSON.stringify('production') },
    build: {
      outDir: process.env.WM_WIDGETS_OUT ?? r('../dist/widgets'),
      emptyOutDir: false,
      copyPublicDir: false,
      target: 'es2022',
      minify: true,
      sourcemap: true,
      reportCompressedSize: false,
      lib: {
        entry: Object.fromEntries(names.map((name) => [name, r(`./${EMBED_WIDGETS[name]!.entry}`)])),
        formats: ['es' as const],
        fileName: (_format, name) => `${name}.js`,
      },
      rolldownOptions: {
        // an element's file may export what a chunk of its own needs (the code both use stays in it)
        preserveEntrySignatures: 'allow-extension',
        output: {
          // --standalone (the bench's baseline): each element in one file, as before the shared runtime
          codeSplitting: process.env.WM_STANDALONE
            ? true
            : {
                groups: [
                  {
                    name: 'runtime',
                    test: (id: string) => RUNTIME.some((re) => re.test(id)),
                    minShareCount: 2,
                    priority: 10,
                  },
                ],
              },
          chunkFileNames: '[name]-[hash].js',
          // library mode keeps whitespace and /* @__PURE__ */ comments in ES output, for the bundlers of a
          // library's users; these files go to browsers as they are, so they are minified fully
          minify: { codegen: { removeWhitespace: true } },
          comments: false,
        },
      },
    },
  };
});
