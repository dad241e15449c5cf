import { type ComponentProps, lazy } from 'react';
import type { SignInDialog as Dialog } from '../../features/auth/components/SignInDialog.tsx';
import { withNamespaces } from '../../lib/i18n.ts';
import { OnceOpened } from './OnceOpened.tsx';

type Props = ComponentProps<typeof Dialog>;

// With the app's query cache around it (the same one the app provides): the public pages'
// light start (`public.tsx`) has none until the dialog opens.
const SignInDialog = lazy(
  withNamespaces(
    () =>
      Promise.all([
        import('../../features/auth/components/SignInDialog.tsx'),
        import('../../lib/query-client.ts'),
      ]).then(([dialog, { withQueryClient }]) => ({
        default: (props: Props) => withQueryClient(<dialog.SignInDialog {...props} />),
      })),
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
