import { useCallback, useEffect, useRef, useState } from 'react';
import * as THREE from 'three';
import { OrbitControls } from 'three/addons/controls/OrbitControls.js';
import { errorText } from '../workers/trainer-client';
import { softwareGl } from './gl-profile';
import type { SceneVisual } from '../../core/render/scene-visual';
import { buildThreeScene, type ThreeSceneHandle } from '../../scene3d/three-scene';

export interface ThreeCanvas {
  canvasRef: React.RefObject<HTMLCanvasElement | null>;
  /** Set when WebGL cannot start. */
  problem?: string;
  /** Draws the scene on show, replacing (and disposing) the previous one; the camera orbits around `target`. */
  show(handle: ThreeSceneHandle, target: readonly [number, number, number]): void;
  /** Moves the orbit target to `target` and the camera with it, keeping the user's view angle and distance. */
  follow(target: readonly [number, number, number]): void;
  /** The scene on show, until the next show or unmount. */
  current(): ThreeSceneHandle | undefined;
  /**
   * The scene on show when it is of `visual`'s task; otherwise a new one built from `visual`
   * (`fresh`), for the caller to set up and show. Views that redraw often build once per task.
   */
  taskScene(visual: SceneVisual): { handle: ThreeSceneHandle; fresh: boolean };
  draw(): void;
}

/** One WebGLRenderer for a canvas, sized to its box, with orbit controls; the main thread only renders (DESIGN.md §7). */
export function useThreeCanvas(): ThreeCanvas {
  const canvasRef = useRef<HTMLCanvasElement>(null);
  const rendererRef = useRef<THREE.WebGLRenderer | undefined>(undefined);
  const controlsRef = useRef<OrbitControls | undefined>(undefined);
  const handleRef = useRef<ThreeSceneHandle | undefined>(undefined);
  const sceneTaskRef = useRef<string | undefined>(undefined);
  const [problem, setProblem] = useState<string>();

  const draw = useCallback(() => {
    const renderer = rendererRef.current;
    const handle = handleRef.current;
    if (renderer && handle) renderer.render(handle.scene, handle.camera);
  }, []);

  useEffect(() => {
    const canvas = canvasRef.current!;
    let renderer: THREE.WebGLRenderer;
    try {
      renderer = new THREE.WebGLRenderer({ canvas, antialias: !softwareGl() });
    } catch (error) {
      setProblem(`WebGL is not available: ${errorText(error)}`);
      return;
    }
    renderer.setPixelRatio(Math.min(2, window.devicePixelRatio));
    renderer.shadowMap.enabled = !softwareGl();
    renderer.shadowMap.type = THREE.PCFShadowMap;
    rendererRef.current = renderer;
    const resize = () => {
      if (canvas.clientWidth === 0 || canvas.clientHeight === 0) return;
      renderer.setSize(canvas.clientWidth, canvas.clientHeight, false);
      handleRef.current?.setAspect(canvas.clientWidth / canvas.clientHeight);
      draw();
    };
    const observer = new ResizeObserver(resize);
    observer.observe(canvas);
    resize();
    return () => {
      observer.disconnect();
      controlsRef.current?.dispose();
      controlsRef.current = undefined;
      handleRef.current?.dispose();
      handleRef.current = undefined;
      renderer.dispose();
      rendererRef.current = undefined;
    };
  }, [draw]);

  const show = useCallback((handle: ThreeSceneHandle, target: readonly [number, number, number]) => {
    const canvas = canvasRef.current;
    const renderer = rendererRef.current;
    const previous = handleRef.current;
    controlsRef.current?.dispose();
    controlsRef.current = undefined;
    handleRef.current = handle;
    if (canvas) {
      if (canvas.clientHeight > 0) handle.setAspect(canvas.clientWidth / canvas.clientHeight);
      const controls = new OrbitControls(handle.camera, canvas);
      controls.target.set(...target);
      controls.update();
      controls.addEventListener('change', draw);
      controlsRef.current = controls;
    }
    // The previous scene is disposed after the new one is drawn: three.js then reuses the shader
    // programs the two share instead of freeing and compiling them again.
    const drawThenDispose = () => {
      if (handleRef.current === handle) draw();
      previous?.dispose();
    };
    // New shaders compile in the GPU process while the main thread goes on (KHR_parallel_shader_compile);
    // a first draw right away would block on the compile.
    if (renderer && canvas) renderer.compileAsync(handle.scene, handle.camera).then(drawThenDispose, drawThenDispose);
    else drawThenDispose();
  }, [draw]);

  const follow = useCallback((target: readonly [number, number, number]) => {
    const controls = controlsRef.current;
    const handle = handleRef.current;
    if (!controls || !handle) return;
    const shift = new THREE.Vector3(...target).sub(controls.target);
    handle.camera.position.add(shift);
    controls.target.add(shift);
    // update() announces a change, which draws; a zero shift draws here.
    if (!controls.update()) draw();
  }, [draw]);

  const current = useCallback(() => handleRef.current, []);
  const taskScene = useCallback((visual: SceneVisual) => {
    const handle = handleRef.current;
    if (handle && sceneTaskRef.current === visual.task) return { handle, fresh: false };
    sceneTaskRef.current = visual.task;
    return { handle: buildThreeScene(visual), fresh: true };
  }, []);
  return { canvasRef, problem, show, follow, current, taskScene, draw };
}
