import {
  Anchor,
  Badge,
  Box,
  Button,
  Container,
  Group,
  Paper,
  SimpleGrid,
  Stack,
  Text,
  ThemeIcon,
  Title,
} from '@mantine/core';
import {
  type Icon,
  IconArrowRight,
  IconBuildingBank,
  IconBuildingCommunity,
  IconBuildingStore,
  IconCalendarTime,
  IconCircleCheck,
  IconCreditCard,
  IconDeviceTv,
  IconEyeOff,
  IconFingerprint,
  IconLayoutDashboard,
  IconLockCheck,
  IconMapPins,
  IconMessage2,
  IconShieldCheck,
  IconStethoscope,
  IconTicket,
  IconUserShield,
  IconUsersGroup,
  IconVideo,
  IconWorld,
} from '@tabler/icons-react';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { CtaBanner } from '../components/CtaBanner.tsx';
import { FeatureCard } from '../components/FeatureCard.tsx';
import { Section, SectionHeading } from '../components/Section.tsx';
import { TicketPreview } from '../components/TicketPreview.tsx';
import { usePageTitle } from '../components/usePageTitle.ts';
import classes from './HomePage.module.css';

interface Step {
  title: string;
  text: string;
}

interface Item {
  id: string;
  title: string;
  text: string;
}

interface Stat {
  value: string;
  label: string;
}

const featureIcons: Record<string, Icon> = {
  tokens: IconTicket,
  live: IconUsersGroup,
  console: IconLayoutDashboard,
  display: IconDeviceTv,
  video: IconVideo,
  payments: IconCreditCard,
  notifications: IconMessage2,
  locations: IconMapPins,
  security: IconFingerprint,
};

const audienceIcons: Record<string, Icon> = {
  clinics: IconStethoscope,
  government: IconBuildingCommunity,
  banks: IconBuildingBank,
  services: IconBuildingStore,
};

const trustIcons: Record<string, Icon> = {
  mfa: IconFingerprint,
  p2p: IconLockCheck,
  gdpr: IconWorld,
  payments: IconCreditCard,
  roles: IconUserShield,
  noTracking: IconEyeOff,
};

function StepList({
  id,
  title,
  steps,
  icon: StepIcon,
}: {
  id: string;
  title: string;
  steps: Step[];
  icon: Icon;
}) {
  return (
    <Paper withBorder radius="lg" p={{ base: 'lg', sm: 'xl' }} h="100%">
      <Group gap="sm" mb="lg">
        <ThemeIcon size={40} radius="md" aria-hidden="true">
          <StepIcon size={22} stroke={1.8} aria-hidden="true" />
        </ThemeIcon>
        <Title order={3} id={id} className={classes.stepsTitle}>
          {title}
        </Title>
      </Group>
      <Box component="ol" aria-labelledby={id} className={classes.steps}>
        {steps.map((step, index) => (
          <li key={step.title} className={classes.step}>
            <span className={classes.stepNumber} aria-hidden="true">
              {index + 1}
            </span>
            <div>
              <Text fw={700} className={classes.stepTitle}>
                {step.title}
              </Text>
              <Text c="dimmed" className={classes.stepText}>
                {step.text}
              </Text>
            </div>
          </li>
        ))}
      </Box>
    </Paper>
  );
}

export function Component() {
  const { t } = useTranslation('marketing');
  usePageTitle(t('home.meta.title'));
  const list = <T,>(key: string) => t(key, { returnObjects: true }) as unknown as T[];

  return (
    <>
      {/* Hero */}
      <Box component="section" aria-labelledby="hero-title" className={classes.hero}>
        <Container>
          <SimpleGrid
            cols={{ base: 1, md: 2 }}
            spacing={{ base: 48, md: 64 }}
            className={classes.heroGrid}
          >
            <Stack gap="lg" justify="center">
              <Badge
                variant="light"
                size="lg"
                radius="sm"
                className={classes.heroBadge}
                classNames={{ label: classes.heroBadgeLabel }}
              >
                {t('home.hero.eyebrow')}
              </Badge>
              <Title order={1} id="hero-title" className={classes.heroTitle}>
                {t('home.hero.title')}
              </Title>
              <Text c="dimmed" className={classes.heroLead}>
                {t('home.hero.lead')}
              </Text>
              <Group gap="sm" mt="xs" className={classes.heroActions}>
                <Button
                  component={Link}
                  to="/join"
                  size="lg"
                  rightSection={<IconArrowRight size={18} aria-hidden="true" />}
                >
                  {t('home.hero.primaryCta')}
                </Button>
                <Button component={Link} to="/pricing" size="lg" variant="default">
                  {t('home.hero.secondaryCta')}
                </Button>
              </Group>
              <Group gap="xs" c="dimmed" wrap="nowrap" align="flex-start">
                <IconCircleCheck
                  size={18}
                  aria-hidden="true"
                  style={{ flexShrink: 0, marginTop: 1 }}
                />
                <Text size="sm">{t('home.hero.note')}</Text>
              </Group>
            </Stack>
            <TicketPreview />
          </SimpleGrid>
        </Container>
      </Box>

      {/* At a glance */}
      <Box component="section" aria-label={t('home.stats.label')} className={classes.stats}>
        <Container>
          <SimpleGrid
            cols={{ base: 2, md: 4 }}
            spacing={{ base: 'lg', md: 'xl' }}
            component="dl"
            m={0}
          >
            {list<Stat>('home.stats.items').map((stat) => (
              <div key={stat.label} className={classes.stat}>
                <Text component="dt" className={classes.statValue}>
                  {stat.value}
                </Text>
                <Text component="dd" c="dimmed" size="sm" m={0}>
                  {stat.label}
                </Text>
              </div>
            ))}
          </SimpleGrid>
        </Container>
      </Box>

      {/* How it works */}
      <Section id="how-it-works">
        <SectionHeading
          id="how-it-works"
          eyebrow={t('home.howItWorks.eyebrow')}
          title={t('home.howItWorks.title')}
          description={t('home.howItWorks.description')}
          align="center"
        />
        <SimpleGrid cols={{ base: 1, md: 2 }} spacing="xl">
          <StepList
            id="how-visitors"
            icon={IconUsersGroup}
            title={t('home.howItWorks.visitors.title')}
            steps={list<Step>('home.howItWorks.visitors.steps')}
          />
          <StepList
            id="how-staff"
            icon={IconLayoutDashboard}
            title={t('home.howItWorks.staff.title')}
            steps={list<Step>('home.howItWorks.staff.steps')}
          />
        </SimpleGrid>
      </Section>

      {/* Features */}
      <Section id="features" tinted>
        <SectionHeading
          id="features"
          eyebrow={t('home.features.eyebrow')}
          title={t('home.features.title')}
          description={t('home.features.description')}
        />
        <SimpleGrid cols={{ base: 1, sm: 2, lg: 3 }} spacing="lg">
          {list<Item>('home.features.items').map((item) => (
            <FeatureCard
              key={item.id}
              icon={featureIcons[item.id] ?? IconCalendarTime}
              title={item.title}
              text={item.text}
            />
          ))}
        </SimpleGrid>
        <Group mt="xl">
          <Anchor component={Link} to="/services" fw={600} className={classes.moreLink}>
            {t('home.features.more')}
            <IconArrowRight size={16} aria-hidden="true" />
          </Anchor>
        </Group>
      </Section>

      {/* Who it's for */}
      <Section id="audiences">
        <SectionHeading
          id="audiences"
          eyebrow={t('home.audiences.eyebrow')}
          title={t('home.audiences.title')}
          description={t('home.audiences.description')}
        />
        <SimpleGrid cols={{ base: 1, sm: 2, lg: 4 }} spacing="lg">
          {list<Item>('home.audiences.items').map((item) => (
            <FeatureCard
              key={item.id}
              icon={audienceIcons[item.id] ?? IconBuildingStore}
              title={item.title}
              text={item.text}
            />
          ))}
        </SimpleGrid>
        <Group mt="xl">
          <Anchor component={Link} to="/services#industries" fw={600} className={classes.moreLink}>
            {t('home.audiences.more')}
            <IconArrowRight size={16} aria-hidden="true" />
          </Anchor>
        </Group>
      </Section>

      {/* Trust and security */}
      <Section id="trust" tinted>
        <SimpleGrid cols={{ base: 1, md: 3 }} spacing={{ base: 'xl', md: 48 }}>
          <Box>
            <SectionHeading
              id="trust"
              eyebrow={t('home.trust.eyebrow')}
              title={t('home.trust.title')}
              description={t('home.trust.description')}
            />
            <Anchor component={Link} to="/privacy-policy" fw={600} className={classes.moreLink}>
              {t('home.trust.more')}
              <IconArrowRight size={16} aria-hidden="true" />
            </Anchor>
          </Box>
          <SimpleGrid
            cols={{ base: 1, sm: 2 }}
            spacing="xl"
            verticalSpacing="xl"
            className={classes.trustGrid}
          >
            {list<Item>('home.trust.items').map((item) => (
              <FeatureCard
                key={item.id}
                plain
                icon={trustIcons[item.id] ?? IconShieldCheck}
                title={item.title}
                text={item.text}
              />
            ))}
          </SimpleGrid>
        </SimpleGrid>
      </Section>

      <CtaBanner id="home-cta" title={t('home.cta.title')} description={t('home.cta.description')}>
        <Button component={Link} to="/pricing" size="lg" variant="white">
          {t('home.cta.primary')}
        </Button>
        <Button component={Link} to="/aboutus#contact" size="lg" variant="outline" color="gray.0">
          {t('home.cta.secondary')}
        </Button>
      </CtaBanner>
    </>
  );
}
