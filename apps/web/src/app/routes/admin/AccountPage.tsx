import { AccountSettings } from '../../../features/account/components/AccountSettings.tsx';

export function Component() {
  return <AccountSettings />;
}
