// Thrown into a running or waiting unit when its kernel pool is handed back or closed (the worker
// shutting down) before the unit could finish.

/** The unit was interrupted on purpose; its job goes back to the queue without losing an attempt. */
export class HandBackError extends Error {
  constructor() {
    super('worker is shutting down: unit handed back');
    this.name = 'HandBackError';
  }
}
