import { type ComponentProps, lazy } from 'react';
import type { SignInDialog as Dialog } from '../../features/auth/components/SignInDialog.tsx';
import { withNamespaces } from '../../lib/i18n.ts';
import { OnceOpened } from './OnceOpened.tsx';
import { withAppCache } from './with-app-cache.tsx';

type Props = ComponentProps<typeof Dialog>;

// The public pages' light start (`public.tsx`) has no query cache until the dialog opens.
const SignInDialog = lazy(
  withNamespaces(
    withAppCache(() =>
      import('../../features/auth/components/SignInDialog.tsx').then(
        (module) => module.SignInDialog,
      ),
    ),
    'auth',
  ),
);

/** The sign-in dialog, downloaded with the auth client the first time it opens. */
export function LazySignInDialog(props: Props) {
  return (
    <OnceOpened opened={props.opened}>
      <SignInDialog {...props} />
    </OnceOpened>
  );
}
