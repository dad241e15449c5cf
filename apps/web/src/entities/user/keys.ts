/** Query keys of the signed-in user's records, shared by every feature that reads them. */
export const userKeys = {
  all: ['user'] as const,
  data: () => [...userKeys.all, 'user-data'] as const,
};
