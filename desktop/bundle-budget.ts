import { gzipSync } from 'node:zlib';
import type { OutputBundle, OutputChunk } from 'rollup';

/** The first route (entry plus the login page and what they import) must stay ≤400 KB gzip JS. */
export const FIRST_ROUTE_BUDGET_BYTES = 400 * 1024;

const isChunk = (item: OutputBundle[string]): item is OutputChunk => item.type === 'chunk';

/** Gzip bytes of the chunks loaded for the first screen: entry + firstPage, static imports included. */
export function firstRouteGzipBytes(bundle: OutputBundle, firstPage: RegExp): number {
  const chunks = Object.values(bundle).filter(isChunk);
  const byName = new Map(chunks.map((c) => [c.fileName, c]));
  const seen = new Set<string>();
  const visit = (chunk: OutputChunk | undefined) => {
    if (!chunk || seen.has(chunk.fileName)) return;
    seen.add(chunk.fileName);
    for (const name of chunk.imports) visit(byName.get(name));
  };
  for (const chunk of chunks) {
    if (chunk.isEntry || (chunk.isDynamicEntry && firstPage.test(chunk.facadeModuleId ?? ''))) {
      visit(chunk);
    }
  }
  let total = 0;
  for (const name of seen) total += gzipSync(byName.get(name)!.code).length;
  return total;
}

/** A Vite plugin that prints the first-route size and fails the build over budget. */
export function bundleBudget(firstPage = /LoginPage\.tsx$/) {
  return {
    name: 'atende-bundle-budget',
    apply: 'build' as const,
    generateBundle(_: unknown, bundle: OutputBundle) {
      const bytes = firstRouteGzipBytes(bundle, firstPage);
      const kb = (bytes / 1024).toFixed(1);
      const line = `first route: ${kb} KB gzip JS (budget ${FIRST_ROUTE_BUDGET_BYTES / 1024} KB)`;
      if (bytes > FIRST_ROUTE_BUDGET_BYTES) throw new Error(`Bundle budget exceeded: ${line}`);
      console.warn(line);
    },
  };
}
