import { Anchor, Box, Container, Divider, SimpleGrid, Stack, Text, Title } from '@mantine/core';
import { spaRoutes } from '@upnext/contract/routes';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { Logo } from '../../components/Logo.tsx';
import classes from './SiteFooter.module.css';

interface FooterColumnProps {
  title: string;
  links: { to: string; label: string }[];
}

function FooterColumn({ title, links }: FooterColumnProps) {
  return (
    <Stack gap="xs">
      <Title order={2} className={classes.columnTitle}>
        {title}
      </Title>
      <Box component="ul" className={classes.list}>
        {links.map((link) => (
          <li key={link.to}>
            <Anchor component={Link} to={link.to} className={classes.link}>
              {link.label}
            </Anchor>
          </li>
        ))}
      </Box>
    </Stack>
  );
}

export function SiteFooter() {
  const { t } = useTranslation();
  const email = t('footer.contactEmail');
  return (
    <Box component="footer" className={classes.footer}>
      <Container py={48}>
        <SimpleGrid cols={{ base: 1, xs: 2, md: 4 }} spacing="xl">
          <Stack gap="sm">
            <Logo variant="inverse" />
            <Text size="sm" className={classes.muted} maw={260}>
              {t('brand.tagline')}
            </Text>
          </Stack>
          <FooterColumn
            title={t('footer.product')}
            links={[
              { to: spaRoutes.services, label: t('nav.services') },
              { to: spaRoutes.pricing, label: t('nav.pricing') },
              { to: spaRoutes.join, label: t('footer.joinQueue') },
            ]}
          />
          <Stack gap="xs">
            <FooterColumn
              title={t('footer.company')}
              links={[{ to: spaRoutes.aboutUs, label: t('nav.aboutUs') }]}
            />
            <Text size="sm" className={classes.muted} component="p" m={0}>
              {t('footer.contact')}:{' '}
              <Anchor href={`mailto:${email}`} className={classes.link}>
                {email}
              </Anchor>
            </Text>
          </Stack>
          <FooterColumn
            title={t('footer.legal')}
            links={[
              { to: spaRoutes.privacyPolicy, label: t('footer.privacyPolicy') },
              { to: spaRoutes.termsAndConditions, label: t('footer.terms') },
            ]}
          />
        </SimpleGrid>
        <Divider my="xl" color="rgba(255, 255, 255, 0.15)" />
        <Text size="sm" className={classes.muted}>
          {t('footer.copyright', { year: new Date().getFullYear() })}
        </Text>
      </Container>
    </Box>
  );
}
