import { queryOptions, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { userEndpoints } from '@upnext/contract/users';
import { userKeys } from '../../../entities/user/keys.ts';
import { api } from '../../../lib/api-client.ts';
import { useCurrentUser } from '../../../lib/auth-session.ts';

const invitationKeys = {
  mine: (userId: string) => [...userKeys.all, 'invitations', userId] as const,
};

function invitationsQueryOptions(userId: string) {
  return queryOptions({
    queryKey: invitationKeys.mine(userId),
    queryFn: ({ signal }) => api.call(userEndpoints.listInvitations, { signal }),
  });
}

/** `GET /user/invitations`: the signed-in user's pending invitations. */
export function useInvitations() {
  const user = useCurrentUser();
  return useQuery({
    ...invitationsQueryOptions(user?.id ?? 'anonymous'),
    enabled: Boolean(user),
  });
}

/**
 * Accept or decline one invitation. Either way the invitations change, and an accepted one
 * changes the roles record (the companies the user works in).
 */
export function useAnswerInvitation() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: async ({
      companyId,
      answer,
    }: {
      companyId: string;
      answer: 'accept' | 'decline';
    }): Promise<void> => {
      const endpoint =
        answer === 'accept' ? userEndpoints.acceptInvitation : userEndpoints.declineInvitation;
      await api.call(endpoint, { params: { companyId } });
    },
    onSettled: () => queryClient.invalidateQueries({ queryKey: userKeys.all }),
  });
}
