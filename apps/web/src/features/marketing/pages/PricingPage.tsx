import {
  Accordion,
  Box,
  Button,
  Container,
  Paper,
  SimpleGrid,
  Stack,
  Text,
  Title,
} from '@mantine/core';
import { IconReceipt } from '@tabler/icons-react';
import { addOns, planIds, plans } from '@upnext/contract/plans';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { CtaBanner } from '../components/CtaBanner.tsx';
import { PageIntro } from '../components/PageIntro.tsx';
import { PlanCard } from '../components/PlanCard.tsx';
import { PlanComparison } from '../components/PlanComparison.tsx';
import { formatPrice } from '../components/pricing.ts';
import { RichText } from '../components/RichText.tsx';
import { Section, SectionHeading } from '../components/Section.tsx';
import { usePageTitle } from '../components/usePageTitle.ts';
import classes from './PricingPage.module.css';

interface FaqItem {
  question: string;
  answer: string;
}

export function Component() {
  const { t, i18n } = useTranslation('marketing');
  usePageTitle(t('pricing.meta.title'));
  const number = new Intl.NumberFormat(i18n.language);

  // The FAQ quotes the plans' numbers, interpolated so they always match the cards and table.
  const faq = t('pricing.faq.items', {
    returnObjects: true,
    freeQueues: number.format(plans.free.queues ?? 0),
    freeSeats: number.format(plans.free.staffSeats),
    freeTokens: number.format(plans.free.tokensPerMonth),
    smsPrice: formatPrice(addOns.smsPackPrice, i18n.language),
    smsPack: number.format(addOns.smsPackSize),
    exportDays: addOns.exportDays,
  }) as unknown as FaqItem[];
  const billing = t('pricing.billing.paragraphs', { returnObjects: true }) as unknown as string[];

  return (
    <>
      <PageIntro
        eyebrow={t('pricing.intro.eyebrow')}
        title={t('pricing.intro.title')}
        lead={t('pricing.intro.lead')}
      />

      <Box component="section" aria-label={t('pricing.plansLabel')} className={classes.plans}>
        <Container>
          <SimpleGrid cols={{ base: 1, md: 3 }} spacing="lg" className={classes.planGrid}>
            {planIds.map((id) => (
              <PlanCard key={id} plan={plans[id]} />
            ))}
          </SimpleGrid>
        </Container>
      </Box>

      <Section id="compare" tinted>
        <SectionHeading
          id="compare"
          title={t('pricing.compare.title')}
          description={t('pricing.compare.description')}
        />
        <Paper radius="lg" className={classes.tablePaper}>
          <PlanComparison />
        </Paper>
      </Section>

      <Section id="faq" size="md">
        <SectionHeading id="faq" title={t('pricing.faq.title')} />
        <Accordion
          variant="separated"
          radius="md"
          order={3}
          classNames={{ control: classes.faqControl }}
        >
          {faq.map((item) => (
            <Accordion.Item key={item.question} value={item.question}>
              <Accordion.Control>{item.question}</Accordion.Control>
              <Accordion.Panel>
                <Text className={classes.answer}>
                  <RichText text={item.answer} />
                </Text>
              </Accordion.Panel>
            </Accordion.Item>
          ))}
        </Accordion>

        <Paper
          component="aside"
          aria-labelledby="billing-title"
          withBorder
          radius="lg"
          p={{ base: 'lg', sm: 'xl' }}
          mt={48}
          className={classes.billing}
        >
          <Stack gap="sm">
            <Title order={2} id="billing-title" className={classes.billingTitle}>
              <IconReceipt size={22} aria-hidden="true" className={classes.billingIcon} />
              {t('pricing.billing.title')}
            </Title>
            {billing.map((paragraph) => (
              <Text key={paragraph} c="dimmed" className={classes.answer}>
                <RichText text={paragraph} />
              </Text>
            ))}
          </Stack>
        </Paper>
      </Section>

      <CtaBanner
        id="pricing-cta"
        title={t('pricing.cta.title')}
        description={t('pricing.cta.description')}
      >
        <Button component={Link} to="/aboutus#contact" size="lg" variant="white">
          {t('pricing.cta.primary')}
        </Button>
        <Button component={Link} to="/services" size="lg" variant="outline" color="gray.0">
          {t('pricing.cta.secondary')}
        </Button>
      </CtaBanner>
    </>
  );
}
