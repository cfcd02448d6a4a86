import path from 'node:path';

/** What the bundler tells a chunking rule about a module (rolldown's ChunkingContext, the part used here). */
interface ChunkingContext {
  getModuleInfo(id: string): { code: string | null; importedIds: readonly string[]; importers: readonly string[] } | null;
}

/** React, React DOM and the router: a file of their own that changes only when they are upgraded. */
const framework = /[\\/]node_modules[\\/](react|react-dom|scheduler|react-router|@react-router|cookie|set-cookie-parser)[\\/]/;

/** lucide's icons, a module each (scripts/vite-lucide-icons.ts), and the admin's own code. */
const icon = /[\\/]lucide-react[\\/]dist[\\/]esm[\\/]icons[\\/]/;
const lucide = /[\\/]lucide-react[\\/]/;
const shopCode = /[\\/]src[\\/](web|contracts)[\\/]/;
const adminCode = /[\\/]src[\\/]web[\\/](features[\\/]admin[\\/]|pages[\\/]admin|routes[\\/]admin)/;

/**
 * Every page runs the root layout (src/web/root.tsx) and the browser entry, so the modules they
 * import statically are loaded on every first visit. Left to itself the bundler splits them by the
 * set of pages that also import them: on `/` that was 30 files under 1 KB each, which compress
 * worse apart than together and each cost a request. These rules put the framework into one
 * `framework` chunk and the rest, the root layout included, into one `frame` chunk
 * (decision 0032): each of those modules was already on every page's first load. Two later rules
 * (decision 0032, later) trade a few hundred bytes on other pages for fewer files on `/`: the
 * icons the home page draws travel with the frame (the shop's others share an `icons` chunk), and
 * the home page's small modules that other pages share go into one `shared` chunk.
 */
export function frameChunks() {
  const root = path.resolve(path.dirname(new URL(import.meta.url).pathname), '..');
  const rootLayout = path.join(root, 'src', 'web', 'root.tsx');
  const entries = [rootLayout, path.join(root, 'src', 'web', 'entry.client.tsx')];
  const homeRoute = path.join(root, 'src', 'web', 'routes', 'home.tsx');
  // Worked out once per chunking pass: the browser's build and the server's have graphs of their own.
  const passes = new WeakMap<ChunkingContext, { frame: Set<string>; firstView: Set<string>; shared: Set<string> }>();
  const setsOf = (context: ChunkingContext) => {
    let sets = passes.get(context);
    if (!sets) {
      const frame = staticallyImported(entries, context);
      const firstView = staticallyImported([...entries, homeRoute], context);
      sets = { frame, firstView, shared: smallSharedModules(homeRoute, firstView, frame, context) };
      passes.set(context, sets);
    }
    return sets;
  };
  return [
    { name: 'framework', test: framework },
    {
      debugName: 'frame',
      // Called once per module after the whole graph is known, so the walks above see all of it.
      name(id: string, context: ChunkingContext): string | null {
        if (framework.test(id)) return null;
        // The root layout joins the frame: its route's file is a one-line re-export of it. The
        // entry keeps a file of its own, imported last: it starts hydrating when it runs, and
        // React Router's page script must have set up the route modules by then.
        if (id === rootLayout) return 'frame';
        if (entries.includes(id)) return null;
        const { frame, firstView, shared } = setsOf(context);
        // Icons are a few hundred bytes each, with a request each when apart. The ones the frame
        // and the home page draw travel with the frame; the shop's others share one `icons`
        // file, loaded with the first page or section that draws one; the admin's stay with the
        // admin. lucide's own index, if anything imports it, says nothing about who uses an icon.
        if (icon.test(id)) {
          const importers = (context.getModuleInfo(id)?.importers ?? []).filter((importer) => !lucide.test(importer));
          if (!importers.some((importer) => !adminCode.test(importer))) return null;
          return firstView.has(id) ? 'frame' : 'icons';
        }
        if (frame.has(id)) return 'frame';
        return shared.has(id) ? 'shared' : null;
      },
    },
  ];
}

/** A module this small (its source, in characters) is worth a request of its own only when alone. */
const smallModule = 3000;

/**
 * The home page's small modules that other pages import too (a button, a formatter, a data hook):
 * left alone, the bundler gives each set of pages sharing them a file, and `/` asked for ten files
 * under 1 KB. Together they are one file; a page that needs any of them loads a few hundred bytes
 * it may not use.
 */
function smallSharedModules(homeRoute: string, firstView: Set<string>, frame: Set<string>, context: ChunkingContext): Set<string> {
  const candidates = [...firstView].filter((id) => id !== homeRoute && !frame.has(id) && shopCode.test(id) && !adminCode.test(id) && (context.getModuleInfo(id)?.code?.length ?? Infinity) <= smallModule);
  const homeOnly = new Set([...firstView].filter((id) => !frame.has(id)));
  const shared = new Set<string>();
  // Shared: imported from outside the home page's own code, or by a module that is shared.
  for (let grew = true; grew; ) {
    grew = false;
    for (const id of candidates) {
      if (shared.has(id)) continue;
      const importers = context.getModuleInfo(id)?.importers ?? [];
      if (importers.some((importer) => !homeOnly.has(importer) || shared.has(importer))) {
        shared.add(id);
        grew = true;
      }
    }
  }
  return shared;
}

function staticallyImported(from: string[], context: ChunkingContext): Set<string> {
  const seen = new Set<string>();
  const waiting = [...from];
  while (waiting.length > 0) {
    const id = waiting.pop()!;
    if (seen.has(id)) continue;
    seen.add(id);
    waiting.push(...(context.getModuleInfo(id)?.importedIds ?? []));
  }
  return seen;
}
