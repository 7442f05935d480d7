import { useEffect, useRef, useState, type RefObject } from 'react';

export interface ChartFrame {
  /** Content width of the element in CSS pixels; 0 until measured. */
  width: number;
  /** Whether any part of the element is in the viewport. */
  visible: boolean;
}

/**
 * Width and visibility of a chart's element, from one ResizeObserver and one
 * IntersectionObserver: charts skip redraws while scrolled out of view, and
 * none of them reads layout on every render (as ResponsiveContainer does).
 */
export function useChartFrame<T extends Element>(): [RefObject<T | null>, ChartFrame] {
  const ref = useRef<T>(null);
  const [frame, setFrame] = useState<ChartFrame>({ width: 0, visible: true });
  useEffect(() => {
    const element = ref.current;
    if (!element) return;
    const resize = new ResizeObserver(([entry]) => {
      const width = Math.floor(entry.contentRect.width);
      setFrame((previous) => (previous.width === width ? previous : { ...previous, width }));
    });
    const intersection = new IntersectionObserver(([entry]) => {
      const visible = entry.isIntersecting;
      setFrame((previous) => (previous.visible === visible ? previous : { ...previous, visible }));
    });
    resize.observe(element);
    intersection.observe(element);
    return () => {
      resize.disconnect();
      intersection.disconnect();
    };
  }, []);
  return [ref, frame];
}
