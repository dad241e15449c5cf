import { AccountSettings } from '../../../features/account/components/AccountSettings.tsx';
import { PendingInvitations } from '../../../features/invitations/components/PendingInvitations.tsx';

/** The account page; an invited user answers their invitations here (the invite link lands here). */
export function Component() {
  return <AccountSettings notices={<PendingInvitations />} />;
}
