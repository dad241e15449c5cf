/** Query keys of the visit feature, so mutations invalidate exactly what they change. */
export const visitKeys = {
  all: ['visit'] as const,
  queueByCode: (code: string) => [...visitKeys.all, 'queue-by-code', code] as const,
  sessions: (queueId: string, from: string, to: string) =>
    [...visitKeys.all, 'sessions', queueId, from, to] as const,
  services: (sessionId: string) => [...visitKeys.all, 'services', sessionId] as const,
  slots: (serviceId: string) => [...visitKeys.all, 'slots', serviceId] as const,
  myTokens: () => [...visitKeys.all, 'my-tokens'] as const,
  booking: (tokenId: string) => [...visitKeys.all, 'booking', tokenId] as const,
  assigned: (date: string) => [...visitKeys.all, 'assigned', date] as const,
  ringingCalls: () => [...visitKeys.all, 'ringing-calls'] as const,
  payment: (paymentId: string) => [...visitKeys.all, 'payment', paymentId] as const,
  queue: (queueId: string) => [...visitKeys.all, 'queue', queueId] as const,
  link: (key: string) => [...visitKeys.all, 'link', key] as const,
};
