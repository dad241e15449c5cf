import { DevMailbox } from '../../features/dev-mailbox/components/DevMailbox.tsx';

export function Component() {
  return <DevMailbox />;
}
