/**
 * Whether the page's WebGL runs on a software rasterizer (SwiftShader, llvmpipe). There the 3D
 * views draw without MSAA and shadows, as the video worker does: on SwiftShader they cost the
 * GPU process several times more per frame, and the compositor stalls the main thread waiting on it.
 */

/** True for the renderer strings of software rasterizers. */
export function isSoftwareRenderer(renderer: string): boolean {
  return /swiftshader|llvmpipe|softpipe|software/i.test(renderer);
}

let probed: boolean | undefined;

/** Probes once, on a throwaway canvas whose context is released right after. */
export function softwareGl(): boolean {
  if (probed !== undefined) return probed;
  probed = false;
  const gl = document.createElement('canvas').getContext('webgl2');
  if (!gl) return probed;
  const info = gl.getExtension('WEBGL_debug_renderer_info');
  const renderer = String(gl.getParameter(info ? info.UNMASKED_RENDERER_WEBGL : gl.RENDERER) ?? '');
  probed = isSoftwareRenderer(renderer);
  gl.getExtension('WEBGL_lose_context')?.loseContext();
  return probed;
}
