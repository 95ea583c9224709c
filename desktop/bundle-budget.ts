import { gzipSync } from 'node:zlib';
import type { OutputBundle, OutputChunk } from 'rollup';

/** The first route, login and then tickets, must each stay ≤400 KB gzip JS (issue 14). */
export const FIRST_ROUTE_BUDGET_BYTES = 400 * 1024;

/** What a cold load of each budgeted route runs: the entry plus these lazy pages (routes/pages.ts). */
export const BUDGETED_ROUTES: { route: string; pages: RegExp[] }[] = [
  { route: '/login', pages: [/[\\/]pages[\\/]login[\\/]LoginPage\.tsx$/] },
  {
    route: '/tickets',
    pages: [/[\\/]layout[\\/]Shell\.tsx$/, /[\\/]pages[\\/]tickets[\\/]TicketsPage\.tsx$/],
  },
];

const isChunk = (item: OutputBundle[string]): item is OutputChunk => item.type === 'chunk';

/**
 * Gzip bytes of the chunks a cold load of a route fetches: the entry and the route's lazy pages,
 * each with its static imports (what Vite preloads). The web-load bench measures the same in
 * Chromium.
 */
export function routeGzipBytes(bundle: OutputBundle, pages: RegExp[]): number {
  const chunks = Object.values(bundle).filter(isChunk);
  const byName = new Map(chunks.map((c) => [c.fileName, c]));
  const seen = new Set<string>();
  const visit = (chunk: OutputChunk | undefined) => {
    if (!chunk || seen.has(chunk.fileName)) return;
    seen.add(chunk.fileName);
    for (const name of chunk.imports) visit(byName.get(name));
  };
  // The chunk that holds the page module (not always its facade: the page's lazy dialogs import
  // from the same chunk, which then has no single facade module).
  const holds = (chunk: OutputChunk, page: RegExp) => chunk.moduleIds.some((id) => page.test(id));
  for (const page of pages) {
    const chunk = chunks.find((c) => holds(c, page));
    if (!chunk) throw new Error(`Bundle budget: no chunk holds ${page}`);
    visit(chunk);
  }
  for (const chunk of chunks) if (chunk.isEntry) visit(chunk);
  let total = 0;
  for (const name of seen) total += gzipSync(byName.get(name)!.code).length;
  return total;
}

/**
 * A Vite plugin that prints each budgeted route's size and fails a production build over budget.
 * A build under NODE_ENV=development bundles React's development code; it is reported only.
 */
export function bundleBudget(routes = BUDGETED_ROUTES) {
  let production = true;
  return {
    name: 'atende-bundle-budget',
    apply: 'build' as const,
    configResolved(config: { isProduction: boolean }) {
      production = config.isProduction;
    },
    generateBundle(_: unknown, bundle: OutputBundle) {
      const over: string[] = [];
      for (const { route, pages } of routes) {
        const bytes = routeGzipBytes(bundle, pages);
        const line = `${route}: ${(bytes / 1024).toFixed(1)} KB gzip JS (budget ${FIRST_ROUTE_BUDGET_BYTES / 1024} KB)`;
        if (bytes > FIRST_ROUTE_BUDGET_BYTES) over.push(line);
        console.warn(
          `first load of ${line}${production ? '' : ' (development build: not enforced)'}`,
        );
      }
      if (over.length && production) {
        throw new Error(`Bundle budget exceeded: ${over.join('; ')}`);
      }
    },
  };
}
