import { Box, Burger, Button, Container, Group } from '@mantine/core';
import { useDisclosure } from '@mantine/hooks';
import { spaRoutes } from '@upnext/contract/routes';
import { lazy, useEffect } from 'react';
import { useTranslation } from 'react-i18next';
import { Link, NavLink, useNavigate, useSearchParams } from 'react-router';
import { Logo } from '../../components/Logo.tsx';
import { useCurrentUser } from '../../lib/auth-session.ts';
import { safeRedirectPath } from '../../lib/safe-redirect.ts';
import { LanguageSwitcher } from './LanguageSwitcher.tsx';
import { LazySignInDialog } from './LazySignInDialog.tsx';
import { OnceOpened } from './OnceOpened.tsx';
import classes from './SiteHeader.module.css';

const SiteMenu = lazy(() =>
  import('./SiteMenu.tsx').then((module) => ({ default: module.SiteMenu })),
);

/** The public pages the header links to (and the small screens' menu, `SiteMenu`). */
export const siteLinks = [
  { to: spaRoutes.home, key: 'nav.home' },
  { to: spaRoutes.services, key: 'nav.services' },
  { to: spaRoutes.pricing, key: 'nav.pricing' },
  { to: spaRoutes.aboutUs, key: 'nav.aboutUs' },
] as const;

export function SiteHeader() {
  const { t } = useTranslation();
  const user = useCurrentUser();
  const [searchParams] = useSearchParams();
  // The route guard sends signed-out visitors to `/?redirect=<path>`: greet them with sign-in.
  const redirectTo = searchParams.get('redirect');
  const [menuOpened, menu] = useDisclosure(false);
  const [signInOpened, signIn] = useDisclosure(Boolean(redirectTo) && !user);
  const navigate = useNavigate();

  // Already signed in (the stored session finished loading): go straight on to `redirect`.
  useEffect(() => {
    if (user && redirectTo) {
      signIn.close();
      void navigate(safeRedirectPath(redirectTo), { replace: true });
    }
  }, [user, redirectTo, navigate, signIn.close]);

  const openSignIn = () => {
    menu.close();
    signIn.open();
  };

  const account = user ? (
    <Button component={Link} to={spaRoutes.admin}>
      {t('nav.dashboard')}
    </Button>
  ) : (
    <Button onClick={openSignIn}>{t('nav.signIn')}</Button>
  );

  return (
    <Box component="header" className={classes.header}>
      <Container h="100%">
        <Group h="100%" justify="space-between" wrap="nowrap">
          <Link to={spaRoutes.home} className={classes.logoLink} aria-label={t('brand.homeLink')}>
            <Logo />
          </Link>

          <Group component="nav" aria-label={t('nav.label')} gap={4} visibleFrom="sm">
            {siteLinks.map((link) => (
              <NavLink key={link.to} to={link.to} end className={classes.link}>
                {t(link.key)}
              </NavLink>
            ))}
          </Group>

          <Group gap="sm" wrap="nowrap">
            <LanguageSwitcher />
            <Box visibleFrom="sm">{account}</Box>
            <Burger
              opened={menuOpened}
              onClick={menu.toggle}
              hiddenFrom="sm"
              aria-label={t('nav.openMenu')}
              aria-expanded={menuOpened}
              aria-controls="site-menu"
            />
          </Group>
        </Group>
      </Container>

      <OnceOpened opened={menuOpened}>
        <SiteMenu opened={menuOpened} onClose={menu.close} onSignIn={openSignIn} />
      </OnceOpened>

      <LazySignInDialog opened={signInOpened} onClose={signIn.close} redirectTo={redirectTo} />
    </Box>
  );
}
