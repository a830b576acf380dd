import { defineWorker } from './worker-kit.js';

export const { worker, handler } = defineWorker('runs', {});
