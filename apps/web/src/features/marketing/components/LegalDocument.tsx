import {
  Anchor,
  Box,
  Container,
  Grid,
  List,
  Paper,
  Stack,
  Table,
  Text,
  Title,
} from '@mantine/core';
import { useTranslation } from 'react-i18next';
import classes from './LegalDocument.module.css';
import { RichText } from './RichText.tsx';

interface LegalTable {
  caption: string;
  columns: string[];
  rows: string[][];
}

/** A block of a legal section in the locale file: a paragraph, a sub-heading, a list or a table. */
type LegalBlock = string | { heading: string } | { list: string[] } | { table: LegalTable };

interface LegalSection {
  id: string;
  title: string;
  content: LegalBlock[];
}

interface LegalDocumentProps {
  /** Top-level key in marketing.json: `privacy` or `terms`. */
  page: 'privacy' | 'terms';
  /** Values interpolated into the text, e.g. retention periods from the plans. */
  values?: Record<string, string | number>;
}

function Block({
  block,
  sectionId,
  index,
}: {
  block: LegalBlock;
  sectionId: string;
  index: number;
}) {
  if (typeof block === 'string') {
    return (
      <Text className={classes.paragraph}>
        <RichText text={block} />
      </Text>
    );
  }
  if ('heading' in block) {
    return (
      <Title order={3} className={classes.subheading}>
        {block.heading}
      </Title>
    );
  }
  if ('list' in block) {
    return (
      <List spacing="xs" className={classes.list}>
        {block.list.map((item) => (
          <List.Item key={item}>
            <RichText text={item} />
          </List.Item>
        ))}
      </List>
    );
  }
  const { caption, columns, rows } = block.table;
  return (
    // Wide screens: a table that scrolls sideways if it must. Small screens: each row
    // becomes a card whose cells carry their column name (see LegalDocument.module.css).
    <Box
      tabIndex={0}
      role="region"
      aria-labelledby={`${sectionId}-table-${index}`}
      className={classes.tableWrap}
    >
      <Table
        withTableBorder
        withColumnBorders
        verticalSpacing="sm"
        horizontalSpacing="md"
        captionSide="top"
        className={classes.table}
      >
        <Table.Caption id={`${sectionId}-table-${index}`}>{caption}</Table.Caption>
        <Table.Thead>
          <Table.Tr>
            {columns.map((column) => (
              <Table.Th key={column} scope="col">
                {column}
              </Table.Th>
            ))}
          </Table.Tr>
        </Table.Thead>
        <Table.Tbody>
          {rows.map((row) => (
            <Table.Tr key={row.join('|')}>
              {row.map((cell, cellIndex) =>
                cellIndex === 0 ? (
                  <Table.Th key={cell} scope="row" className={classes.rowHeader}>
                    <RichText text={cell} />
                  </Table.Th>
                ) : (
                  // biome-ignore lint/suspicious/noArrayIndexKey: cells of a fixed row never reorder
                  <Table.Td key={cellIndex} data-label={columns[cellIndex]}>
                    <RichText text={cell} />
                  </Table.Td>
                ),
              )}
            </Table.Tr>
          ))}
        </Table.Tbody>
      </Table>
    </Box>
  );
}

/** A legal page: the h1, the date, a table of contents with in-page links, then the sections. */
export function LegalDocument({ page, values = {} }: LegalDocumentProps) {
  const { t } = useTranslation('marketing');
  const intro = t(`${page}.intro`, { returnObjects: true, ...values }) as unknown as string[];
  const sections = t(`${page}.sections`, {
    returnObjects: true,
    ...values,
  }) as unknown as LegalSection[];
  const tocId = `${page}-toc`;

  return (
    <Container size="lg" py={{ base: 'xl', sm: 64 }}>
      <Box component="header" maw={760} mb={{ base: 'xl', md: 48 }}>
        <Title order={1} className={classes.title}>
          {t(`${page}.title`)}
        </Title>
        <Text c="dimmed" mt="sm" fw={500}>
          {t('common.lastUpdated', { date: t('common.legalDate') })}
        </Text>
        <Stack gap="sm" mt="lg">
          {intro.map((paragraph) => (
            <Text key={paragraph} size="lg" className={classes.paragraph}>
              <RichText text={paragraph} />
            </Text>
          ))}
        </Stack>
      </Box>

      <Grid gap={{ base: 'xl', md: 48 }}>
        <Grid.Col span={{ base: 12, md: 4, lg: 3 }}>
          <Paper
            component="nav"
            aria-labelledby={tocId}
            withBorder
            radius="lg"
            p="lg"
            className={classes.toc}
          >
            <Text id={tocId} fw={700} mb="sm">
              {t('common.onThisPage')}
            </Text>
            <Box component="ol" className={classes.tocList}>
              {sections.map((section) => (
                <li key={section.id}>
                  <Anchor href={`#${section.id}`} size="sm" className={classes.tocLink}>
                    {section.title}
                  </Anchor>
                </li>
              ))}
            </Box>
          </Paper>
        </Grid.Col>
        <Grid.Col span={{ base: 12, md: 8, lg: 9 }}>
          <Stack gap={40} className={classes.body}>
            {sections.map((section) => (
              <Box
                component="section"
                key={section.id}
                id={section.id}
                aria-labelledby={`${section.id}-title`}
                className={classes.section}
              >
                <Title order={2} id={`${section.id}-title`} className={classes.sectionTitle}>
                  {section.title}
                </Title>
                <Stack gap="md">
                  {section.content.map((block, index) => (
                    <Block
                      // biome-ignore lint/suspicious/noArrayIndexKey: blocks of a static document never reorder
                      key={index}
                      block={block}
                      sectionId={section.id}
                      index={index}
                    />
                  ))}
                </Stack>
              </Box>
            ))}
            <Anchor href="#top" size="sm" fw={600}>
              {t('common.backToTop')}
            </Anchor>
          </Stack>
        </Grid.Col>
      </Grid>
    </Container>
  );
}
