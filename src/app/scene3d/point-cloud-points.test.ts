import { describe, expect, it } from 'vitest';
import * as THREE from 'three';
import { buildPointCloud, cloudCentroid, disposePointCloud, SHARE_RAMP, shareColors } from './point-cloud-points';

const stop = (index: number) => new THREE.Color(SHARE_RAMP[index]).toArray();

describe('point-cloud colours', () => {
  it('puts no share at grey, half the top share at amber and the top share at red', () => {
    // Top share 0.5: 0 → stop 0, 0.25 → stop 1 (half way), 0.5 → stop 2.
    const colors = shareColors(Float32Array.from([0, 0.25, 0.5, 0.25]));
    const rows = [0, 1, 2, 3].map((pointIndex) => Array.from(colors.subarray(pointIndex * 3, pointIndex * 3 + 3)));
    [stop(0), stop(1), stop(2), stop(1)].forEach((expected, pointIndex) => expected.forEach((value, channel) => expect(rows[pointIndex][channel]).toBeCloseTo(value, 6)));
  });

  it('blends linearly inside a segment, and draws every point grey when none wins', () => {
    // 0.125 of a top share 0.5 is a quarter of the ramp: half way between grey and amber.
    const colors = shareColors(Float32Array.from([0.125, 0.5]));
    const halfway = stop(0).map((value, channel) => (value + stop(1)[channel]) / 2);
    halfway.forEach((value, channel) => expect(colors[channel]).toBeCloseTo(value, 6));
    const none = shareColors(new Float32Array(3));
    for (let pointIndex = 0; pointIndex < 3; pointIndex++) stop(0).forEach((value, channel) => expect(none[pointIndex * 3 + channel]).toBeCloseTo(value, 6));
  });

  it('draws the points in rising share and disposes them', () => {
    const points = Float32Array.from([0, 0, 0, 1, 1, 1, 2, 2, 2]);
    const cloud = buildPointCloud(points, Float32Array.from([0.6, 0, 0.4]));
    const drawn = Array.from(cloud.geometry.getAttribute('position').array as Float32Array);
    expect(drawn).toEqual([1, 1, 1, 2, 2, 2, 0, 0, 0]);
    expect(cloud.geometry.getAttribute('color').count).toBe(3);
    const scene = new THREE.Scene();
    scene.add(cloud);
    disposePointCloud(cloud);
    expect(scene.children).toHaveLength(0);
  });
});

describe('cloudCentroid', () => {
  it('is the mean point', () => {
    // (0,0,0), (2,4,6), (1,-1,3): sums (3,3,9) / 3 = (1,1,3).
    expect(cloudCentroid(Float32Array.from([0, 0, 0, 2, 4, 6, 1, -1, 3]))).toEqual([1, 1, 3]);
  });
});
