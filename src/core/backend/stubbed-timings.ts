/**
 * Timings given in place of measured ones, for the e2e test of the choice's wiring (test builds
 * only): "webgpu:1/2,wasm:10/20" is milliseconds per decision / per gradient step for each backend.
 */
import { BackendError } from '../errors';
import { BACKEND_NAMES, type BackendName } from './choose-backend';
import type { PolicySpeed } from './policy-speed';

export type StubbedTimings = Partial<Record<BackendName, PolicySpeed>>;

const FORMAT = "backend:decisionMs/gradStepMs pairs separated by commas, e.g. 'webgpu:1/2,wasm:10/20'";

export function parseStubbedTimings(text: string): StubbedTimings {
  const timings: StubbedTimings = {};
  for (const part of text.split(',').filter((entry) => entry.trim() !== '')) {
    const match = /^\s*([a-z]+):([0-9.e+-]+)\/([0-9.e+-]+)\s*$/.exec(part);
    const backend = match?.[1] as BackendName | undefined;
    const [decisionMs, gradStepMs] = [Number(match?.[2]), Number(match?.[3])];
    if (!match || !backend || !BACKEND_NAMES.includes(backend) || !(decisionMs > 0) || !(gradStepMs > 0)) {
      throw new BackendError(`stubbed backend timing '${part}' is not valid: give ${FORMAT}, with backends from ${BACKEND_NAMES.join(', ')} and positive times`);
    }
    timings[backend] = { decisionSeconds: decisionMs / 1000, gradStepSeconds: gradStepMs / 1000 };
  }
  return timings;
}
