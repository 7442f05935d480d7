import * as Comlink from 'comlink';
import type { BackendName } from '../src/core/backend/choose-backend';
import type { TrainerWorkerApi } from '../src/protocol/trainer-api';
import { initBrowserBackend } from './tfjs-browser';
import { probeSample } from './probe-sample';

let backend: BackendName | undefined;

const api: TrainerWorkerApi = {
  async init(options) {
    const report = await initBrowserBackend(options.backend);
    backend = report.backend;
    return report;
  },
  async probeSample(seed) {
    if (!backend) throw new Error('trainer worker is not initialized: call init() first');
    const result = await probeSample(seed, backend);
    return Comlink.transfer(result, [result.actions.buffer]);
  },
};

Comlink.expose(api);
