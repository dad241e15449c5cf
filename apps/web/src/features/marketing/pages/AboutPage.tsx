import {
  Anchor,
  Box,
  Button,
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
  IconAccessible,
  IconBuilding,
  IconCode,
  IconHeadset,
  IconLock,
  IconMail,
  IconMessages,
  IconReceipt,
  IconRefresh,
  IconServer,
  IconShieldLock,
  IconUsersGroup,
} from '@tabler/icons-react';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { FeatureCard } from '../components/FeatureCard.tsx';
import { PageIntro } from '../components/PageIntro.tsx';
import { Section, SectionHeading } from '../components/Section.tsx';
import { usePageTitle } from '../components/usePageTitle.ts';
import classes from './AboutPage.module.css';

interface Item {
  id: string;
  title: string;
  text: string;
}

const valueIcons: Record<string, Icon> = {
  accessibility: IconAccessible,
  privacy: IconLock,
  reliability: IconServer,
};

const workIcons: Record<string, Icon> = {
  frontDesk: IconUsersGroup,
  releases: IconRefresh,
  openStandards: IconCode,
  security: IconShieldLock,
};

const contactChannels = [
  { key: 'support', icon: IconHeadset },
  { key: 'privacy', icon: IconLock },
  { key: 'sales', icon: IconReceipt },
  { key: 'general', icon: IconMessages },
] as const;

export function Component() {
  const { t } = useTranslation('marketing');
  usePageTitle(t('about.meta.title'));
  const list = <T,>(key: string) => t(key, { returnObjects: true }) as unknown as T[];

  return (
    <>
      <PageIntro
        eyebrow={t('about.intro.eyebrow')}
        title={t('about.intro.title')}
        lead={t('about.intro.lead')}
      />

      <Section id="mission">
        <SimpleGrid cols={{ base: 1, md: 2 }} spacing={{ base: 'xl', md: 64 }}>
          <Box>
            <Title order={2} id="mission-title" className={classes.title}>
              {t('about.mission.title')}
            </Title>
            <Text className={classes.mission} mt="md">
              {t('about.mission.text')}
            </Text>
          </Box>
          <Box component="section" aria-labelledby="story-title">
            <Title order={2} id="story-title" className={classes.title}>
              {t('about.story.title')}
            </Title>
            <Stack gap="md" mt="md">
              {list<string>('about.story.paragraphs').map((paragraph) => (
                <Text key={paragraph} c="dimmed" className={classes.paragraph}>
                  {paragraph}
                </Text>
              ))}
            </Stack>
          </Box>
        </SimpleGrid>
      </Section>

      <Section id="values" tinted>
        <SectionHeading
          id="values"
          eyebrow={t('about.values.eyebrow')}
          title={t('about.values.title')}
        />
        <SimpleGrid cols={{ base: 1, md: 3 }} spacing="lg">
          {list<Item>('about.values.items').map((item) => (
            <FeatureCard
              key={item.id}
              icon={valueIcons[item.id] ?? IconLock}
              title={item.title}
              text={item.text}
            />
          ))}
        </SimpleGrid>
      </Section>

      <Section id="how-we-work">
        <SectionHeading id="how-we-work" title={t('about.howWeWork.title')} />
        <SimpleGrid cols={{ base: 1, sm: 2 }} spacing="xl" verticalSpacing={40}>
          {list<Item>('about.howWeWork.items').map((item) => (
            <FeatureCard
              key={item.id}
              plain
              icon={workIcons[item.id] ?? IconCode}
              title={item.title}
              text={item.text}
            />
          ))}
        </SimpleGrid>
      </Section>

      <Section id="contact" tinted>
        <SectionHeading
          id="contact"
          title={t('about.contact.title')}
          description={t('about.contact.description')}
        />
        <SimpleGrid cols={{ base: 1, md: 3 }} spacing="lg">
          <SimpleGrid cols={{ base: 1, sm: 2 }} spacing="lg" className={classes.channels}>
            {contactChannels.map(({ key, icon: ChannelIcon }) => {
              const email = t(`about.contact.${key}.email`);
              return (
                <Paper key={key} withBorder radius="lg" p="lg">
                  <Stack gap="xs">
                    <ThemeIcon variant="light" size={40} radius="md" aria-hidden="true">
                      <ChannelIcon size={22} stroke={1.7} aria-hidden="true" />
                    </ThemeIcon>
                    <Title order={3} className={classes.channelTitle}>
                      {t(`about.contact.${key}.title`)}
                    </Title>
                    <Text size="sm" c="dimmed" className={classes.paragraph}>
                      {t(`about.contact.${key}.text`)}
                    </Text>
                    <Anchor
                      href={`mailto:${email}`}
                      fw={600}
                      className={classes.email}
                      aria-label={t('about.contact.emailLabel', { email })}
                    >
                      <IconMail size={16} aria-hidden="true" />
                      {email}
                    </Anchor>
                  </Stack>
                </Paper>
              );
            })}
          </SimpleGrid>
          <Paper withBorder radius="lg" p="lg">
            <Stack gap="xs">
              <ThemeIcon variant="light" size={40} radius="md" aria-hidden="true">
                <IconBuilding size={22} stroke={1.7} aria-hidden="true" />
              </ThemeIcon>
              <Title order={3} className={classes.channelTitle}>
                {t('about.contact.address.title')}
              </Title>
              <Text component="address" className={classes.address}>
                {list<string>('about.contact.address.lines').map((line) => (
                  <span key={line}>
                    {line}
                    <br />
                  </span>
                ))}
              </Text>
              <Text size="sm" c="dimmed" className={classes.paragraph}>
                {t('about.contact.address.registration')}
              </Text>
              <Group mt="sm">
                <Button component={Link} to="/privacy-policy" variant="default" size="sm">
                  {t('about.contact.address.privacyLink')}
                </Button>
              </Group>
            </Stack>
          </Paper>
        </SimpleGrid>
      </Section>
    </>
  );
}
