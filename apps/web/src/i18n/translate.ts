import type reservesEn from '#features/landing/locales/en.json';
import type leaderboardEn from '#features/leaderboard/locales/en.json';
import type evidenceEn from '#features/market-evidence/locales/en.json';
import type reviewEn from '#features/market-review/locales/en.json';
import type marketsEn from '#features/markets/locales/en.json';
import type myBetsEn from '#features/my-bets/locales/en.json';
import type historyEn from '#features/my-bets/locales/history/en.json';
import type oracleEn from '#features/oracle/locales/en.json';
import type priceEn from '#features/price-markets/locales/en.json';
import type marketActionsEn from '#i18n/market-actions/en.json';
import type selfClaimEn from '#wallet/self-claim/locales/en.json';
import type appEn from './app/en.json';
import type shellEn from './en.json';
import type walletPartsEn from './wallet-parts/en.json';

export const LANGUAGES = ['en', 'zh'] as const;
export type Language = (typeof LANGUAGES)[number];

/** A message tree as the locale files hold it: nested objects with strings at the leaves. */
export type Messages = { [key: string]: string | Messages };

/** Every message of the app, typed from the English files (types only: nothing is bundled here). */
type AllMessages = typeof shellEn &
  typeof appEn &
  typeof walletPartsEn &
  typeof marketsEn &
  typeof marketActionsEn &
  typeof reviewEn &
  typeof evidenceEn &
  typeof priceEn &
  typeof oracleEn &
  typeof selfClaimEn &
  typeof leaderboardEn &
  typeof myBetsEn &
  typeof reservesEn &
  typeof historyEn;

// Plural forms are chosen by `count` (Intl.PluralRules): `bets_one` and `bets_other` are both `bets`.
type WithoutPlural<Key extends string> =
  Key extends `${infer Base}_${'zero' | 'one' | 'two' | 'few' | 'many' | 'other'}` ? Base : Key;

type KeyPaths<Tree> = {
  [Key in keyof Tree & string]: Tree[Key] extends string
    ? WithoutPlural<Key>
    : `${Key}.${KeyPaths<Tree[Key]>}`;
}[keyof Tree & string];

/** Type-checked keys: `t('wallet.connect')` compiles, a misspelt key does not. */
export type TranslationKey = KeyPaths<AllMessages>;
export type TranslationValues = Record<string, string | number>;
export type TFunction = (key: TranslationKey, values?: TranslationValues) => string;

const PLACEHOLDER = /\{\{\s*(\w+)\s*\}\}/g;

function lookup(messages: Messages, path: string): string | undefined {
  let node: string | Messages | undefined = messages;
  for (const part of path.split('.')) {
    if (node === undefined || typeof node === 'string') return undefined;
    node = node[part];
  }
  return typeof node === 'string' ? node : undefined;
}

/**
 * The text of `key` in `messages`: the plural form `count` selects (falling back to `_other`), with
 * `{{name}}` placeholders filled from `values`. Falls back to `fallback` messages, then to the key
 * itself, so a missing string shows up in the page instead of breaking it.
 */
export function translate(
  language: Language,
  messages: Messages,
  fallback: Messages,
  key: string,
  values?: TranslationValues,
): string {
  const find = (path: string) => lookup(messages, path) ?? lookup(fallback, path);
  let template: string | undefined;
  if (typeof values?.count === 'number') {
    const form = new Intl.PluralRules(language).select(values.count);
    template = find(`${key}_${form}`) ?? find(`${key}_other`);
  }
  template ??= find(key);
  if (template === undefined) return key;
  if (!values) return template;
  return template.replace(PLACEHOLDER, (placeholder, name: string) =>
    Object.hasOwn(values, name) ? String(values[name]) : placeholder,
  );
}
