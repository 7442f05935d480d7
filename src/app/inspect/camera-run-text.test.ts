import { describe, expect, it } from 'vitest';
import { policyImageText, runCameraName } from './camera-run-text';

describe('camera run text', () => {
  it('starts the panel on the first camera a run reading cameras names, else on the scene\'s first', () => {
    expect(runCameraName({ obs_type: 'rgb', camera: 'wrist,front', image_size: 24 })).toBe('wrist');
    expect(runCameraName({ obs_type: 'depth_pointcloud', camera: 'side', image_size: 64 })).toBe('side');
    expect(runCameraName({ obs_type: 'rgb', camera: 'default', image_size: 24 })).toBeUndefined();
    // A state run names cameras for nothing: the panel keeps the scene's first.
    expect(runCameraName({ obs_type: 'state', camera: 'wrist', image_size: 64 })).toBeUndefined();
  });

  it('says what an image policy sees, and nothing for other observations', () => {
    expect(policyImageText({ obs_type: 'rgb', camera: 'default', image_size: 24 }, ['front', 'wrist'])).toBe('The policy sees the front camera as a 24×24 rgb image, rendered the same way as here.');
    // Before the scene's cameras are known.
    expect(policyImageText({ obs_type: 'rgb', camera: 'default', image_size: 24 })).toBe('The policy sees the scene\'s first camera as a 24×24 rgb image, rendered the same way as here.');
    expect(policyImageText({ obs_type: 'rgbd', camera: 'front,wrist', image_size: 32 }, ['front', 'wrist']))
      .toBe('The policy sees the front, wrist cameras as 32×32 rgb images (plus a depth byte a pixel), rendered the same way as here.');
    expect(policyImageText({ obs_type: 'depth_pointcloud', camera: 'default', image_size: 64 })).toBeUndefined();
    expect(policyImageText({ obs_type: 'state', camera: 'default', image_size: 64 })).toBeUndefined();
  });
});
