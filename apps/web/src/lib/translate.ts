/**
 * A page's texts without i18next, for the light wall-screen entry (`display.tsx`): the same
 * locales/<language>/<namespace>.json files read the way i18next reads them here (`i18n.ts`:
 * no escaping): `ns:` before a key names another namespace, dots walk nested keys, `{{name}}`
 * is replaced by a value (`{{name, number}}` formatted for the language, as i18next's `number`), and a `count` picks the plural form of the language
 * (`key_one`, `key_other`, Arabic's `key_zero`... by `Intl.PluralRules`), and `returnObjects`
 * gives a list or group of texts, each filled in (the caller casts it, as with i18next). Used by
 * the boards' entry (`display.tsx`) and the public pages' light start (`light/i18n.ts`);
 * `translate.test.ts` checks it answers as i18next does for every key of the namespaces they serve.
 */
export type Texts = Readonly<Record<string, unknown>>;
export type Translate = (key: string, values?: Readonly<Record<string, unknown>>) => string;

function lookup(texts: Texts | undefined, path: string): unknown {
  let node: unknown = texts;
  for (const part of path.split('.')) {
    if (typeof node !== 'object' || node === null) return undefined;
    node = (node as Texts)[part];
  }
  return node;
}

export function createTranslate(
  language: string,
  namespaces: Readonly<Record<string, Texts>>,
  defaultNamespace: string,
): Translate {
  const plurals = new Intl.PluralRules(language);
  const numbers = new Intl.NumberFormat(language);
  return (key, values = {}) => {
    const separator = key.indexOf(':');
    const namespace = separator > 0 ? key.slice(0, separator) : defaultNamespace;
    const path = separator > 0 ? key.slice(separator + 1) : key;
    const texts = namespaces[namespace];
    const count = values.count;
    const found =
      (typeof count === 'number' ? lookup(texts, `${path}_${plurals.select(count)}`) : undefined) ??
      lookup(texts, path);
    if (typeof found === 'string') return fill(found, values, numbers);
    if (values.returnObjects === true && typeof found === 'object' && found !== null) {
      return fillAll(found, values, numbers) as string;
    }
    // A missing key shows as itself, as i18next shows it.
    return path;
  };
}

type Values = Readonly<Record<string, unknown>>;

function fill(text: string, values: Values, numbers: Intl.NumberFormat): string {
  return text.replace(
    /\{\{\s*([^},\s]+)\s*(,\s*number\s*)?\}\}/g,
    (whole, name: string, number?: string) => {
      if (!(name in values)) return whole;
      const value = values[name];
      return number && typeof value === 'number' ? numbers.format(value) : String(value);
    },
  );
}

function fillAll(node: unknown, values: Values, numbers: Intl.NumberFormat): unknown {
  if (typeof node === 'string') return fill(node, values, numbers);
  if (Array.isArray(node)) return node.map((item) => fillAll(item, values, numbers));
  if (typeof node !== 'object' || node === null) return node;
  return Object.fromEntries(
    Object.entries(node).map(([key, item]) => [key, fillAll(item, values, numbers)]),
  );
}
