/** Whether this instance should receive traffic: false before start-up ends and while draining. */
export interface Lifecycle {
  ready: boolean;
}

export function createLifecycle(): Lifecycle {
  return { ready: false };
}
