import { describe, expect, it } from 'vitest';
import * as THREE from 'three';
import { buildPathLines, disposePathLines } from './path-lines';

describe('buildPathLines', () => {
  it('splits each path at n_action_steps and marks the end points', () => {
    // M = 2 chains, H = 3: points p0..p3 per chain; the first 2 steps are executed.
    const paths = Float32Array.from({ length: 2 * 4 * 3 }, (_, index) => index / 100);
    const odePath = Float32Array.from({ length: 4 * 3 }, (_, index) => -index / 100);
    const group = buildPathLines(paths, odePath, 2, 3, 2);
    const lines = group.children.filter((child): child is THREE.Line => child instanceof THREE.Line);
    // Executed + rest for each of 2 chains and the ODE chunk.
    expect(lines).toHaveLength(6);
    expect(lines.map((line) => line.geometry.getAttribute('position').count)).toEqual([3, 2, 3, 2, 3, 2]);
    // Chain 1's rest starts at its p2 = values 18..20 and ends at p3.
    expect(Array.from(lines[3].geometry.getAttribute('position').array as Float32Array).map((v) => Math.round(v * 100))).toEqual([18, 19, 20, 21, 22, 23]);
    const dots = group.children.filter((child): child is THREE.Points => child instanceof THREE.Points);
    expect(Array.from(dots[0].geometry.getAttribute('position').array as Float32Array).map((v) => Math.round(v * 100))).toEqual([9, 10, 11, 21, 22, 23]);
    expect(Array.from(dots[1].geometry.getAttribute('position').array as Float32Array).map((v) => Math.round(v * 100))).toEqual([-9, -10, -11]);
    const scene = new THREE.Scene();
    scene.add(group);
    disposePathLines(group);
    expect(scene.children).toHaveLength(0);
  });

  it('draws no faint part when the whole horizon is executed', () => {
    const group = buildPathLines(new Float32Array(2 * 3), new Float32Array(2 * 3), 1, 1, 4);
    expect(group.children.filter((child) => child instanceof THREE.Line)).toHaveLength(2);
  });
});
