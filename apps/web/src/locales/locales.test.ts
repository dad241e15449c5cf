import { readdirSync, readFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { languageCodes } from '@upnext/contract/languages';
import { describe, expect, it } from 'vitest';

// Every text file of every language, by its path under locales/ ("fr/visit.json").
const files = Object.fromEntries(
  Object.entries(
    import.meta.glob<unknown>('./*/**/*.json', { eager: true, import: 'default' }),
  ).map(([path, texts]) => [path.slice(2), texts]),
);

const pluralSuffix = /_(zero|one|two|few|many|other)$/;
const placeholder = /{{\s*([\w.]+)\s*(?:,[^}]*)?}}/g;

/** Leaf texts by key path ("link.title", "reasons.0"). */
function leaves(value: unknown, prefix = ''): Map<string, string> {
  const found = new Map<string, string>();
  if (typeof value === 'string') return found.set(prefix, value);
  if (typeof value === 'object' && value !== null) {
    for (const [key, child] of Object.entries(value)) {
      for (const entry of leaves(child, prefix ? `${prefix}.${key}` : key)) found.set(...entry);
    }
  }
  return found;
}

function placeholders(text: string): Set<string> {
  return new Set([...text.matchAll(placeholder)].map((match) => match[1] ?? ''));
}

/** The placeholders a text must have (`required`) and may have (`allowed`). */
interface Expected {
  english: string;
  required: Set<string>;
  allowed: Set<string>;
}

/**
 * What `language` must have for English's keys: the same keys, except that a plural (English
 * `x_one`, `x_other`) needs every plural form of that language (Arabic six, French three), plus
 * `x_zero` where English has one (i18next prefers it for a count of 0 in every language). A
 * plural form may leave out the count and what only some English forms name.
 */
function expectedKeys(english: Map<string, string>, language: string) {
  const categories = new Intl.PluralRules(language).resolvedOptions().pluralCategories;
  const expected = new Map<string, Expected>();
  for (const [key, text] of english) {
    const base = key.replace(pluralSuffix, '');
    if (base === key) {
      const own = placeholders(text);
      expected.set(key, { english: text, required: own, allowed: own });
      continue;
    }
    const forms = [...english]
      .filter(([other]) => other.replace(pluralSuffix, '') === base && other !== base)
      .map(([, form]) => placeholders(form));
    const allowed = new Set(forms.flatMap((form) => [...form]));
    const required = new Set(
      [...allowed].filter((name) => name !== 'count' && forms.every((form) => form.has(name))),
    );
    const source = english.get(`${base}_other`) ?? text;
    for (const category of [...categories, ...(key.endsWith('_zero') ? ['zero'] : [])]) {
      expected.set(`${base}_${category}`, { english: source, required, allowed });
    }
  }
  return expected;
}

/** Every problem of one language's file against English's, one line each. */
function problemsOf(language: string, file: string): string[] {
  const path = `${language}/${file}`;
  if (!(path in files)) return [`${path}: the file is missing`];
  const english = leaves(files[`en/${file}`]);
  const translated = leaves(files[path]);
  const expected = expectedKeys(english, language);
  const problems: string[] = [];
  for (const [key, { english: source, required, allowed }] of expected) {
    const text = translated.get(key);
    if (text === undefined) {
      problems.push(`${path}: missing "${key}" (English: ${JSON.stringify(source)})`);
      continue;
    }
    if (!text.trim()) problems.push(`${path}: "${key}" is empty`);
    const got = placeholders(text);
    const lacking = [...required].filter((name) => !got.has(name));
    const unknown = [...got].filter((name) => !allowed.has(name));
    if (lacking.length > 0 || unknown.length > 0) {
      problems.push(
        `${path}: "${key}" lacks {${lacking.join(', ')}} and has unknown {${unknown.join(', ')}}`,
      );
    }
  }
  for (const key of translated.keys()) {
    if (!expected.has(key)) problems.push(`${path}: "${key}" is not an English key`);
  }
  return problems;
}

const englishFiles = Object.keys(files)
  .filter((path) => path.startsWith('en/'))
  .map((path) => path.slice(3));

describe('translations', () => {
  it.each(languageCodes.filter((language) => language !== 'en'))(
    '%s has every English text, with its placeholders and its plural forms',
    (language) => {
      const problems = englishFiles.flatMap((file) => problemsOf(language, file));
      const extraFiles = Object.keys(files).filter(
        (path) =>
          path.startsWith(`${language}/`) && !(`en/${path.slice(language.length + 1)}` in files),
      );
      expect([...problems, ...extraFiles.map((path) => `${path}: no English file`)]).toEqual([]);
    },
  );

  it('every literal key the code asks for exists in English', () => {
    const source = join(import.meta.dirname, '..');
    const english = new Map<string, Map<string, string>>();
    for (const path of englishFiles) {
      const namespace = path.replace(/\.json$/, '').split('/')[0] ?? path;
      const inNamespace = english.get(namespace) ?? new Map<string, string>();
      for (const [key, text] of leaves(files[`en/${path}`])) inNamespace.set(key, text);
      english.set(namespace, inNamespace);
    }
    /** A key exists as a text, a plural, or an object of texts (`returnObjects`). */
    const exists = (keys: Map<string, string>, key: string) =>
      keys.has(key) ||
      keys.has(`${key}_other`) ||
      [...keys.keys()].some((leaf) => leaf.startsWith(`${key}.`));

    const unknown: string[] = [];
    let checked = 0;
    const sourceFiles = readdirSync(source, { recursive: true, encoding: 'utf8' }).filter(
      (path) => /\.tsx?$/.test(path) && !/\.test\.tsx?$/.test(path),
    );
    for (const path of sourceFiles) {
      const code = readFileSync(join(source, path), 'utf8');
      // The namespaces a file reads without a prefix: `useTranslation('visit')`, else `common`;
      // a helper handed its `t` names the namespace in its type (`t: TFunction<'visit'>`).
      const declared = [
        ...code.matchAll(/useTranslation\(\s*(?:\[([^\]]*)\]|'([\w/]+)')?/g),
      ].flatMap((match) =>
        match[1]
          ? [...match[1].matchAll(/'([\w/]+)'/g)].map((name) => name[1] ?? '')
          : [match[2] ?? 'common'],
      );
      const typed = [...code.matchAll(/TFunction<\s*'([\w/]+)'/g)].map((match) => match[1] ?? '');
      const namespaces = new Set(['common', ...declared, ...typed]);
      // A local `t` that prefixes its key (`i18n.t(\`billing:plan.status.${key}\`)`).
      const wrapper = /const t = \(key[^=]*=>\s*i18n\.t\(`([\w.:]+)\$\{key\}`/.exec(code)?.[1];
      const known = (literal: string) => {
        const [namespace, key] = literal.includes(':')
          ? (literal.split(':') as [string, string])
          : [null, literal];
        return namespace
          ? exists(english.get(namespace) ?? new Map(), key)
          : [...namespaces].some((name) => exists(english.get(name) ?? new Map(), key));
      };
      for (const match of code.matchAll(/\bt\(\s*'([\w.:-]+)'/g)) {
        const literal = match[1] ?? '';
        checked += 1;
        if (!known(literal) && !(wrapper && known(`${wrapper}${literal}`))) {
          unknown.push(`${relative(source, join(source, path))}: t('${literal}')`);
        }
      }
    }
    expect(unknown).toEqual([]);
    // The scan itself works: the code asks for hundreds of literal keys.
    expect(checked).toBeGreaterThan(500);
  });
});
