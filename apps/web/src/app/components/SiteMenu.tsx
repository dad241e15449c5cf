import { Box, Button, Drawer, NavLink as MantineNavLink, Stack, useDirection } from '@mantine/core';
import { spaRoutes } from '@upnext/contract/routes';
import { useTranslation } from 'react-i18next';
import { Link, NavLink } from 'react-router';
import { useCurrentUser } from '../../lib/auth-session.ts';
import { siteLinks } from './SiteHeader.tsx';
import classes from './SiteMenu.module.css';

interface SiteMenuProps {
  opened: boolean;
  onClose: () => void;
  onSignIn: () => void;
}

/** The header's menu on small screens: loaded by the header the first time it opens. */
export function SiteMenu({ opened, onClose, onSignIn }: SiteMenuProps) {
  const { t } = useTranslation();
  const user = useCurrentUser();
  // From the side the header's menu button is on.
  const { dir } = useDirection();
  return (
    <Drawer
      id="site-menu"
      opened={opened}
      onClose={onClose}
      title={t('nav.menuTitle')}
      position={dir === 'rtl' ? 'left' : 'right'}
      size="xs"
      hiddenFrom="sm"
      closeButtonProps={{ 'aria-label': t('nav.closeMenu') }}
    >
      <Stack gap="lg">
        <Box component="nav" aria-label={t('nav.label')}>
          {siteLinks.map((link) => (
            <MantineNavLink
              key={link.to}
              component={NavLink}
              to={link.to}
              end
              label={t(link.key)}
              onClick={onClose}
              className={classes.link}
            />
          ))}
        </Box>
        {user ? (
          <Button component={Link} to={spaRoutes.admin} onClick={onClose} fullWidth>
            {t('nav.dashboard')}
          </Button>
        ) : (
          <Button onClick={onSignIn} fullWidth>
            {t('nav.signIn')}
          </Button>
        )}
      </Stack>
    </Drawer>
  );
}
