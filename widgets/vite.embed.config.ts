/**
 * The embed build (DESIGN.md, Widgets): Vite library mode, React aliased to preact/compat, one
 * self-contained ES module per widget in dist/widgets, each defining its custom element.
 * `node widgets/build-embed.mjs` runs it once per widget (WM_WIDGET names the widget) and writes
 * dist/widgets/manifest.json and the demo page.
 *
 * Size measures keep each file near its budget (docs/PERFORMANCE.md, `node bench/widgets.mjs`): the
 * widgets' zod props schemas are compiled to their JSON Schema and checked by
 * widgets/embed/light-schema.ts (zod stays out of the files); the design system's portal-only sections
 * (forms, tables, pager, toasts) are left out of the CSS put in the shadow roots; the output is minified
 * fully (library mode keeps whitespace otherwise). A widget marked `"lean": true` in widgets.json also
 * runs on Preact without preact/compat (widgets/embed/react-on-preact.ts) and carries only the CSS rules
 * whose classes its code names (widgets/embed/prune-css.ts).
 */
import { fileURLToPath } from 'node:url';
import { defineConfig, type Plugin, type UserConfig } from 'vite';
import * as z from 'zod/mini';
import * as awardProps from './award/props';
import * as catalogueProps from './catalogue/props';
import * as courseDetailProps from './course-detail/props';
import * as dashboardProps from './dashboard/props';
import { pruneCss, wordsOf } from './embed/prune-css';
import widgets from './embed/widgets.json' with { type: 'json' };
import * as testTakerProps from './test-taker/props';

const r = (p: string) => fileURLToPath(new URL(p, import.meta.url));

/**
 * Each widget: its output file name → its entry and its element (also read by build-embed.mjs), whether
 * it is lean (Preact without compat, pruned CSS: see the file comment), and whether its dynamic imports
 * become files of their own (`"split": true`, named `<widget>.<module>-<hash>.js`) instead of being
 * inlined into the element's file.
 */
export const EMBED_WIDGETS = widgets as Record<
  string,
  { entry: string; tag: string; lean?: boolean; split?: boolean }
>;

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
 * Lean widgets: each `*.css?inline` module exports a marker instead of its CSS; once the file's code is
 * complete, each marker becomes the CSS's rules that can match, given the words of that code.
 */
export function leanCss({ split = false } = {}): Plugin {
  const sheets: string[] = [];
  const marker = (i: number) => `globalThis.__wmCss${i}`;
  const fill = (code: string, used: Set<string>) =>
    code.replace(/globalThis\.__wmCss(\d+)/g, (_, i: string) =>
      JSON.stringify(pruneCss(sheets[Number(i)]!, used)),
    );
  const plugin: Plugin = {
    name: 'waymark:lean-css',
    enforce: 'post',
    transform(code, id) {
      if (!/\.css\?inline$/.test(id)) return null;
      const css = code.match(/^export default ("(?:[^"\\]|\\.)*");?\s*$/)?.[1];
      if (!css) this.error(`${id}: expected the inline CSS module Vite makes (export default "…")`);
      sheets.push(JSON.parse(css));
      return { code: `export default ${marker(sheets.length - 1)};`, map: null };
    },
  };
  if (!split) {
    plugin.renderChunk = (code) => ({ code: fill(code, wordsOf(code)), map: null });
    return plugin;
  }
  // A split widget's CSS sits in the element's file while the chunks it loads use the classes: the words
  // of every file count, so the markers are filled once all files are made. Their source maps are not
  // shifted for it; only `bench/widgets.mjs --sources` reads them.
  plugin.generateBundle = (_options, bundle) => {
    const chunks = Object.values(bundle).filter((f) => f.type === 'chunk');
    const used = new Set<string>();
    for (const c of chunks) for (const w of wordsOf(c.code)) used.add(w);
    for (const c of chunks) c.code = fill(c.code, used);
  };
  return plugin;
}

export default defineConfig((): UserConfig => {
  const name = process.env.WM_WIDGET ?? 'roadmap-catalogue';
  const widget = EMBED_WIDGETS[name];
  if (!widget) throw new Error(`Unknown widget ${name}: one of ${Object.keys(EMBED_WIDGETS).join(', ')}`);
  return {
    publicDir: false,
    logLevel: 'warn',
    plugins: [
      propsWithoutZod(),
      widgetStylesOnly(),
      ...(widget.lean ? [leanCss({ split: widget.split })] : []),
    ],
    resolve: {
      alias: [
        ...(widget.lean
          ? [
              { find: /^react$/, replacement: r('./embed/react-on-preact.ts') },
              // the widgets use signals as values (read through useSignalValue), never signals-react's hooks
              { find: /^@preact\/signals-react$/, replacement: '@preact/signals-core' },
            ]
          : []),
        { find: /^react-dom\/client$/, replacement: 'preact/compat/client' },
        { find: /^react-dom$/, replacement: 'preact/compat' },
        { find: /^react\/jsx-runtime$/, replacement: 'preact/jsx-runtime' },
        { find: /^react\/jsx-dev-runtime$/, replacement: 'preact/jsx-runtime' },
        { find: /^react$/, replacement: 'preact/compat' },
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
        entry: r(`./${widget.entry}`),
        formats: ['es' as const],
        fileName: () => `${name}.js`,
      },
      rolldownOptions: {
        // the element's file may export what a chunk of its own needs (the code both use stays in it)
        preserveEntrySignatures: 'allow-extension',
        output: {
          codeSplitting: widget.split === true,
          chunkFileNames: `${name}.[name]-[hash].js`,
          // library mode keeps whitespace and /* @__PURE__ */ comments in ES output, for the bundlers of a
          // library's users; these files go to browsers as they are, so they are minified fully
          minify: { codegen: { removeWhitespace: true } },
          comments: false,
        },
      },
    },
  };
});
