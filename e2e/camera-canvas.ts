import type { Page } from '@playwright/test';

/** The ray-cast camera's colour where a ray hits nothing. */
const BACKGROUND_RGB = [40, 44, 52];

/** Pixels of a camera canvas, and how many differ from the background. */
export async function canvasPixels(page: Page, testId: string): Promise<{ width: number; pixels: number; foreground: number; distinct: number }> {
  return page.getByTestId(testId).evaluate((canvas, background) => {
    const element = canvas as HTMLCanvasElement;
    const rgba = element.getContext('2d')!.getImageData(0, 0, element.width, element.height).data;
    let foreground = 0;
    const colours = new Set<number>();
    for (let pixel = 0; pixel < rgba.length / 4; pixel++) {
      const [red, green, blue] = [rgba[pixel * 4], rgba[pixel * 4 + 1], rgba[pixel * 4 + 2]];
      if (red !== background[0] || green !== background[1] || blue !== background[2]) foreground++;
      colours.add((red << 16) | (green << 8) | blue);
    }
    return { width: element.width, pixels: rgba.length / 4, foreground, distinct: colours.size };
  }, BACKGROUND_RGB);
}
