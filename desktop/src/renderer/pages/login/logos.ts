import { logoEndpoints, type LogoRef, type LogosAnswer } from '@atende/shared';
import { useEffect, useState } from 'react';
import { getPlatform } from '../../platform';
import { publicApi } from '../../session/store';

/**
 * The interface logos the super user uploaded (Logo tab): read once per page load from the public
 * `GET /public/logos` (the login page has no session), then shown from `/public/logos/{ref}`.
 */
let loaded: Promise<LogosAnswer | null> | null = null;

export function loadLogos(): Promise<LogosAnswer | null> {
  loaded ??= publicApi.call(logoEndpoints.listLogos).catch(() => {
    loaded = null;
    return null;
  });
  return loaded;
}

/** Forgets what was read (after an upload, the new logo shows at once). */
export function forgetLogos(): void {
  loaded = null;
}

/** The absolute address of a destination's logo, or null when none was uploaded. */
export function useLogo(ref: LogoRef): string | null {
  const [src, setSrc] = useState<string | null>(null);
  useEffect(() => {
    let live = true;
    void loadLogos().then((logos) => {
      const path = logos?.[ref];
      if (live) setSrc(path ? getPlatform().resolveUrl(path) : null);
    });
    return () => {
      live = false;
    };
  }, [ref]);
  return src;
}

/** `<link>` elements the uploaded icons become: favicon, 256×256 favicon, apple-touch-icon. */
const ICON_LINKS: [LogoRef, string, string | null][] = [
  ['favicon', 'icon', null],
  ['favicon-256x256', 'icon', '256x256'],
  ['apple-touch-icon', 'apple-touch-icon', null],
];

/** Points the page's icons at the uploaded ones (those never uploaded keep the browser's). */
export async function applyUploadedIcons(doc: Document = document): Promise<void> {
  const logos = await loadLogos();
  if (!logos) return;
  for (const [ref, rel, sizes] of ICON_LINKS) {
    const path = logos[ref];
    if (!path) continue;
    const selector = `link[data-logo="${ref}"]`;
    let link = doc.head.querySelector<HTMLLinkElement>(selector);
    if (!link) {
      link = doc.createElement('link');
      link.dataset.logo = ref;
      link.rel = rel;
      if (sizes) link.sizes.value = sizes;
      doc.head.appendChild(link);
    }
    link.href = getPlatform().resolveUrl(path);
  }
}
