/**
 * Test builds only: lets the e2e suite ask the trainer worker for a camera image and compare its
 * bytes with Node's, by SHA-256 of the rgb and depth buffers.
 */
import type { CameraViewRequest } from '../../protocol/trainer-api';
import { trainerClient } from '../workers/trainer-client';

export interface CameraHashes {
  cameras: string[];
  camera?: string;
  size?: number;
  rgbSha256?: string;
  depthSha256?: string;
}

async function sha256(bytes: Uint8Array): Promise<string> {
  const digest = new Uint8Array(await crypto.subtle.digest('SHA-256', bytes as Uint8Array<ArrayBuffer>));
  return Array.from(digest, (byte) => byte.toString(16).padStart(2, '0')).join('');
}

export function installCameraTestHook(): void {
  (window as unknown as { __flowtuneCameraHashes?: (request: CameraViewRequest) => Promise<CameraHashes> }).__flowtuneCameraHashes = async (request) => {
    const view = await trainerClient().cameraView(request);
    if (!view.image) return { cameras: view.cameras };
    const { camera, size, rgb, depth } = view.image;
    return { cameras: view.cameras, camera, size, rgbSha256: await sha256(rgb), depthSha256: await sha256(new Uint8Array(depth.buffer, depth.byteOffset, depth.byteLength)) };
  };
}
