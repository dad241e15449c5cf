import {
  Anchor,
  Box,
  Button,
  Group,
  List,
  Paper,
  SimpleGrid,
  Stack,
  Text,
  ThemeIcon,
  Title,
} from '@mantine/core';
import {
  type Icon,
  IconApi,
  IconArrowRight,
  IconBell,
  IconBuildingBank,
  IconBuildingCommunity,
  IconCalendarTime,
  IconChartBar,
  IconCheck,
  IconCreditCard,
  IconDeviceTv,
  IconLayoutDashboard,
  IconSchool,
  IconScissors,
  IconStethoscope,
  IconTicket,
  IconTool,
  IconVideo,
} from '@tabler/icons-react';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { CtaBanner } from '../components/CtaBanner.tsx';
import { FeatureCard } from '../components/FeatureCard.tsx';
import { PageIntro } from '../components/PageIntro.tsx';
import { Section, SectionHeading } from '../components/Section.tsx';
import { usePageTitle } from '../components/usePageTitle.ts';
import classes from './ServicesPage.module.css';

interface Capability {
  id: string;
  title: string;
  summary: string;
  points: string[];
  link?: string;
}

interface Industry {
  id: string;
  title: string;
  text: string;
  setup: string;
}

const capabilityIcons: Record<string, Icon> = {
  'queue-management': IconTicket,
  'appointment-booking': IconCalendarTime,
  'live-console': IconLayoutDashboard,
  'display-boards': IconDeviceTv,
  'video-consultations': IconVideo,
  payments: IconCreditCard,
  notifications: IconBell,
  reporting: IconChartBar,
  integrations: IconApi,
};

const industryIcons: Record<string, Icon> = {
  healthcare: IconStethoscope,
  government: IconBuildingCommunity,
  banking: IconBuildingBank,
  salons: IconScissors,
  education: IconSchool,
  retail: IconTool,
};

/** The OpenAPI reference is served by the API server, outside the single-page app. */
const API_DOCS_URL = '/api/docs';

export function Component() {
  const { t } = useTranslation('marketing');
  usePageTitle(t('services.meta.title'));
  const capabilities = t('services.capabilities.items', {
    returnObjects: true,
  }) as unknown as Capability[];
  const industries = t('services.industries.items', {
    returnObjects: true,
  }) as unknown as Industry[];

  return (
    <>
      <PageIntro
        eyebrow={t('services.intro.eyebrow')}
        title={t('services.intro.title')}
        lead={t('services.intro.lead')}
      >
        <Box component="nav" aria-labelledby="services-jump" mt="sm">
          <Text id="services-jump" size="sm" fw={600} mb="xs">
            {t('services.intro.jumpTo')}
          </Text>
          <Group component="ul" gap="xs" className={classes.jumpList}>
            {capabilities.map((capability) => (
              <li key={capability.id}>
                <Anchor href={`#${capability.id}`} className={classes.jumpLink}>
                  {capability.title}
                </Anchor>
              </li>
            ))}
            <li>
              <Anchor href="#industries" className={classes.jumpLink}>
                {t('services.industries.eyebrow')}
              </Anchor>
            </li>
          </Group>
        </Box>
      </PageIntro>

      <Section id="capabilities">
        <Title order={2} id="capabilities-title" className={classes.visuallyHiddenTitle}>
          {t('services.capabilities.title')}
        </Title>
        <SimpleGrid cols={{ base: 1, md: 2 }} spacing="xl" verticalSpacing="xl">
          {capabilities.map((capability, index) => {
            // An odd last card spans the full row rather than sitting alone.
            const wide = capabilities.length % 2 === 1 && index === capabilities.length - 1;
            const CapabilityIcon = capabilityIcons[capability.id] ?? IconTicket;
            return (
              <Paper
                key={capability.id}
                component="article"
                id={capability.id}
                aria-labelledby={`${capability.id}-title`}
                withBorder
                radius="lg"
                p={{ base: 'lg', sm: 'xl' }}
                className={classes.capability}
                data-wide={wide || undefined}
              >
                <Stack gap="md" h="100%">
                  <Group gap="md" wrap="nowrap" align="flex-start">
                    <ThemeIcon size={52} radius="md" variant="light" aria-hidden="true">
                      <CapabilityIcon size={28} stroke={1.6} aria-hidden="true" />
                    </ThemeIcon>
                    <Stack gap={4}>
                      <Title
                        order={3}
                        id={`${capability.id}-title`}
                        className={classes.capabilityTitle}
                      >
                        {capability.title}
                      </Title>
                      <Text c="dimmed" fw={500}>
                        {capability.summary}
                      </Text>
                    </Stack>
                  </Group>
                  <List
                    spacing="sm"
                    className={classes.points}
                    classNames={{ itemWrapper: classes.pointWrapper }}
                    icon={
                      <ThemeIcon size={20} radius="xl" variant="light" aria-hidden="true">
                        <IconCheck size={13} stroke={2.5} />
                      </ThemeIcon>
                    }
                  >
                    {capability.points.map((point) => (
                      <List.Item key={point}>{point}</List.Item>
                    ))}
                  </List>
                  {capability.link && (
                    <Anchor href={API_DOCS_URL} fw={600} mt="auto" className={classes.moreLink}>
                      {capability.link}
                      <IconArrowRight size={16} aria-hidden="true" />
                    </Anchor>
                  )}
                </Stack>
              </Paper>
            );
          })}
        </SimpleGrid>
      </Section>

      <Section id="industries" tinted>
        <SectionHeading
          id="industries"
          eyebrow={t('services.industries.eyebrow')}
          title={t('services.industries.title')}
          description={t('services.industries.description')}
        />
        <SimpleGrid cols={{ base: 1, sm: 2, lg: 3 }} spacing="lg">
          {industries.map((industry) => (
            <FeatureCard
              key={industry.id}
              icon={industryIcons[industry.id] ?? IconTicket}
              title={industry.title}
              text={industry.text}
            >
              <Box className={classes.setup} mt="auto">
                <Text size="sm" fw={700} mb={4}>
                  {t('services.industries.setupLabel')}
                </Text>
                <Text size="sm" className={classes.setupText}>
                  {industry.setup}
                </Text>
              </Box>
            </FeatureCard>
          ))}
        </SimpleGrid>
      </Section>

      <CtaBanner
        id="services-cta"
        title={t('services.cta.title')}
        description={t('services.cta.description')}
      >
        <Button component={Link} to="/pricing" size="lg" variant="white">
          {t('services.cta.primary')}
        </Button>
        <Button component={Link} to="/aboutus#contact" size="lg" variant="outline" color="gray.0">
          {t('services.cta.secondary')}
        </Button>
      </CtaBanner>
    </>
  );
}
