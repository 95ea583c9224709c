import { lazy, Suspense, useState, type ComponentType } from 'react';

/**
 * A dialog whose code loads the first time it opens, so a page's first load does not carry its
 * forms (react-hook-form, the phone rules, Autocomplete). Once opened it stays mounted, so its
 * closing transition and its state behave as they did with a static import.
 */
export function lazyDialog<P extends object>(
  load: () => Promise<ComponentType<P>>,
  isOpen: (props: P) => boolean,
): ComponentType<P> {
  const Dialog = lazy(async () => ({ default: await load() }));
  function LazyDialog(props: P) {
    const open = isOpen(props);
    const [opened, setOpened] = useState(open);
    if (open && !opened) setOpened(true);
    if (!opened && !open) return null;
    return (
      <Suspense fallback={null}>
        <Dialog {...props} />
      </Suspense>
    );
  }
  return LazyDialog;
}
