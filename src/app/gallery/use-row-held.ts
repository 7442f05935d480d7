import { useLayoutEffect, useRef, type RefObject } from 'react';

/** Where a row sits in its scroll container's content, in pixels from the content's top. */
function contentOffset(container: HTMLElement, row: Element): number {
  return row.getBoundingClientRect().top - container.getBoundingClientRect().top + container.scrollTop;
}

/**
 * Holds the selected row where it is on screen while rows are added above it (the gallery lists
 * the newest first and grows every iteration): the container scrolls by what was inserted. The
 * user's own scrolling moves the row, not its content offset, so it is left alone.
 */
export function useRowHeldInPlace(containerRef: RefObject<HTMLElement | null>, selectedId: string | undefined, rowsVersion: unknown): void {
  const anchor = useRef<{ id: string; offset: number } | undefined>(undefined);
  useLayoutEffect(() => {
    const container = containerRef.current;
    const row = selectedId !== undefined ? container?.querySelector(`[data-episode-id="${CSS.escape(selectedId)}"]`) : null;
    if (!container || !row) {
      anchor.current = undefined;
      return;
    }
    const offset = contentOffset(container, row);
    const held = anchor.current;
    if (held !== undefined && held.id === selectedId && held.offset !== offset) container.scrollTop += offset - held.offset;
    anchor.current = { id: row.getAttribute('data-episode-id')!, offset };
  }, [containerRef, selectedId, rowsVersion]);
}
