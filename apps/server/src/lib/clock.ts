/** Injected wherever "now" matters, so tests can fix time instead of waiting for it. */
export type Clock = () => Date;

export const systemClock: Clock = () => new Date();
