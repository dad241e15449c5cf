import { AppShell, Box, Burger, Button, Group, NavLink, ScrollArea, Text } from '@mantine/core';
import { DatesProvider } from '@mantine/dates';
import { useDisclosure } from '@mantine/hooks';
import {
  IconAdjustmentsHorizontal,
  IconArrowLeft,
  IconBuilding,
  IconCalendarEvent,
  IconChartBar,
  IconListNumbers,
  IconLogout,
  IconTicket,
  IconUserCircle,
} from '@tabler/icons-react';
import { spaRoutes } from '@upnext/contract/routes';
// The calendars' month and day names in every language the admin area speaks.
import 'dayjs/locale/ar';
import 'dayjs/locale/fr';
import { useTranslation } from 'react-i18next';
import { Link, Outlet, NavLink as RouterNavLink } from 'react-router';
import { Logo } from '../../components/Logo.tsx';
import { useIsCompanyMember, useUserData } from '../../entities/user/api.ts';
import { getAuthClient } from '../../lib/auth-client.ts';
import { markSignOutByUser, useCurrentUser } from '../../lib/auth-session.ts';
import { currentLanguage } from '../../lib/language.ts';
import { LanguageSwitcher } from '../components/LanguageSwitcher.tsx';
import { MAIN_CONTENT_ID } from '../components/SkipLink.tsx';
import classes from './AdminLayout.module.css';

/** `staff`: only for members of a company; a visitor sees their visits and account. */
const sections = [
  { to: spaRoutes.adminQueues, key: 'queues', Icon: IconListNumbers, staff: true },
  { to: spaRoutes.adminQueueSessions, key: 'queueSessions', Icon: IconCalendarEvent, staff: true },
  { to: spaRoutes.adminMySessions, key: 'mySessions', Icon: IconTicket, staff: false },
  {
    to: spaRoutes.adminSessionControl,
    key: 'sessionControl',
    Icon: IconAdjustmentsHorizontal,
    staff: true,
  },
  { to: spaRoutes.adminReports, key: 'reports', Icon: IconChartBar, staff: true },
  { to: spaRoutes.adminCompany, key: 'company', Icon: IconBuilding, staff: true },
  { to: spaRoutes.adminAccount, key: 'account', Icon: IconUserCircle, staff: false },
] as const;

/** The signed-in area: a top bar, the section navigation and the page. Loaded only under /admin. */
export function Component() {
  const { t } = useTranslation();
  const user = useCurrentUser();
  const userData = useUserData();
  const [opened, { toggle, close }] = useDisclosure(false);
  // Staff sections only once the roles record says so: a visitor never sees them, not even
  // for a moment while it loads.
  const member = useIsCompanyMember();
  const shown = sections.filter((section) => member || !section.staff);

  // SIGNED_OUT clears the query cache (auth-client.ts); the guard then goes home.
  const signOut = async () => {
    markSignOutByUser();
    await getAuthClient().signOut();
  };

  return (
    <AppShell
      header={{ height: 64 }}
      navbar={{ width: 260, breakpoint: 'sm', collapsed: { mobile: !opened } }}
      padding={{ base: 'md', sm: 'xl' }}
    >
      <AppShell.Header>
        <Group h="100%" px="md" justify="space-between" wrap="nowrap">
          <Group gap="sm" wrap="nowrap">
            <Burger
              opened={opened}
              onClick={toggle}
              hiddenFrom="sm"
              size="sm"
              aria-label={t('admin.openMenu')}
              aria-expanded={opened}
              aria-controls="admin-navbar"
            />
            <Link to={spaRoutes.home} className={classes.logoLink} aria-label={t('brand.homeLink')}>
              <Logo />
            </Link>
          </Group>
          <Group gap="sm" wrap="nowrap">
            {user?.email || user?.phone ? (
              <Text size="sm" c="dimmed" truncate maw={240} visibleFrom="xs">
                {user.displayName ?? user.email ?? user.phone}
              </Text>
            ) : null}
            {/* On small screens it is in the menu: the bar has no room beside sign-out. */}
            <Box visibleFrom="sm">
              <LanguageSwitcher />
            </Box>
            <Button
              variant="subtle"
              color="gray"
              size="compact-sm"
              leftSection={<IconLogout size={16} aria-hidden />}
              onClick={() => void signOut()}
            >
              {t('admin.signOut')}
            </Button>
          </Group>
        </Group>
      </AppShell.Header>

      <AppShell.Navbar id="admin-navbar" p="sm" aria-label={t('admin.navLabel')} component="nav">
        <AppShell.Section grow component={ScrollArea}>
          {shown.map(({ to, key, Icon }) => (
            <NavLink
              key={to}
              component={RouterNavLink}
              to={to}
              label={t(key === 'mySessions' && !member ? 'admin.nav.myVisits' : `admin.nav.${key}`)}
              leftSection={<Icon size={20} stroke={1.6} aria-hidden />}
              onClick={close}
              className={classes.navLink}
            />
          ))}
        </AppShell.Section>
        <AppShell.Section>
          {userData.data && !member ? (
            <NavLink
              component={Link}
              to={spaRoutes.adminCompany}
              label={t('admin.setUpBusiness')}
              leftSection={<IconBuilding size={20} stroke={1.6} aria-hidden />}
              onClick={close}
              className={classes.navLink}
              c="dimmed"
            />
          ) : null}
          <Box hiddenFrom="sm" px="sm" pb="sm">
            <LanguageSwitcher />
          </Box>
          <NavLink
            component={Link}
            to={spaRoutes.home}
            label={t('admin.backToSite')}
            leftSection={<IconArrowLeft size={20} stroke={1.6} aria-hidden />}
            className={classes.navLink}
          />
        </AppShell.Section>
      </AppShell.Navbar>

      <AppShell.Main id={MAIN_CONTENT_ID} tabIndex={-1} className={classes.main}>
        <DatesProvider settings={{ locale: currentLanguage() }}>
          <Outlet />
        </DatesProvider>
      </AppShell.Main>
    </AppShell>
  );
}
