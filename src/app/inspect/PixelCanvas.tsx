import { useEffect, useRef } from 'react';

/** An image of `size` × `size` RGBA pixels, drawn at its own resolution and scaled up by CSS without smoothing. */
export function PixelCanvas({ rgba, size, label, testId }: { rgba: Uint8ClampedArray; size: number; label: string; testId: string }) {
  const canvasRef = useRef<HTMLCanvasElement>(null);
  useEffect(() => {
    const canvas = canvasRef.current;
    const context = canvas?.getContext('2d');
    if (!canvas || !context) return;
    canvas.width = size;
    canvas.height = size;
    context.putImageData(new ImageData(new Uint8ClampedArray(rgba), size, size), 0, 0);
  }, [rgba, size]);
  return <canvas ref={canvasRef} className="pixel-canvas" aria-label={label} role="img" data-testid={testId} />;
}
