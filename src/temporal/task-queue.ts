/** Task queue the worker polls. Overridable with `TEMPORAL_TASK_QUEUE` (default `ndc-saga`). */
export const DEFAULT_TASK_QUEUE = 'ndc-saga';
