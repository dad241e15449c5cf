/**
 * A page's texts without i18next, for the light wall-screen entry (`display.tsx`): the same
 * locales/<language>/<namespace>.json files read the way i18next reads them here (`i18n.ts`:
 * no escaping): `ns:` before a key names another namespace, dots walk nested keys, `{{name}}`
 * is replaced by a value, and a `count` picks the plural form of the language
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
  return (key, values = {}) => {
    const separator = key.indexOf(':');
    const namespace = separator > 0 ? key.slice(0, separator) : defaultNamespace;
    const path = separator > 0 ? key.slice(separator + 1) : key;
    const texts = namespaces[namespace];
    const count = values.count;
    const found =
      (typeof count === 'number' ? lookup(texts, `${path}_${plurals.select(count)}`) : undefined) ??
      lookup(texts, path);
    if (typeof found === 'string') return fill(found, values);
    if (values.returnObjects === true && typeof found === 'object' && found !== null) {
      return fillAll(found, values) as string;
    }
    // A missing key shows as itself, as i18next shows it.
    return path;
  };
}

function fill(text: string, values: Readonly<Record<string, unknown>>): string {
  return text.replace(/\{\{\s*([^}\s]+)\s*\}\}/g, (whole, name: string) =>
    name in values ? String(values[name]) : whole,
  );
}

function fillAll(node: unknown, values: Readonly<Record<string, unknown>>): unknown {
  if (typeof node === 'string') return fill(node, values);
  if (Array.isArray(node)) return node.map((item) => fillAll(item, values));
  if (typeof node !== 'object' || node === null) return node;
  return Object.fromEntries(
    Object.entries(node).map(([key, item]) => [key, fillAll(item, values)]),
  );
}
