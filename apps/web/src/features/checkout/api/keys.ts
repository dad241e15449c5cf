/** Query keys of the sandbox checkout. */
export const checkoutKeys = {
  all: ['checkout'] as const,
  sandbox: (checkoutId: string) => [...checkoutKeys.all, 'sandbox', checkoutId] as const,
};
