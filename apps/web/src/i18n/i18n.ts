import {
  type Language,
  type Messages,
  type TFunction,
  type TranslationKey,
  type TranslationValues,
  translate,
} from './translate.ts';

/** Loads one namespace's messages in one language: a dynamic `import()` of its locale file. */
export type MessagesLoader = () => Promise<{ default: Messages }>;
export type NamespaceLoaders = Record<string, Partial<Record<Language, MessagesLoader>>>;

type I18nSnapshot = { language: Language; t: TFunction };

export type I18n = {
  getSnapshot: () => I18nSnapshot;
  subscribe: (listener: () => void) => () => void;
  /** Switches once the new language's messages for every namespace in use have loaded. */
  changeLanguage: (language: Language) => Promise<void>;
  /** Resolves when these namespaces are there in the active language (a route awaits it). */
  loadNamespaces: (namespaces: readonly string[]) => Promise<void>;
  /**
   * One namespace in the active language: the same promise on every call until the language
   * changes, so a lazy part can suspend on it with React's `use` (useNamespace).
   */
  namespace: (namespace: string) => Promise<void>;
  /** Starts loading another language's messages early (the toggle calls it on hover and focus). */
  prefetchLanguage: (language: Language) => void;
};

type Options = {
  /** docs/product.md §4: default en. */
  language?: Language;
  /** Messages there from the start (English shell strings in the app; every message in tests). */
  messages?: Partial<Record<Language, Messages>>;
  /** Everything else, loaded when a route needs it or the language changes. */
  loaders?: NamespaceLoaders;
};

/**
 * Our i18n: typed keys, `{{placeholders}}`, plurals by `count`, namespaces and languages loaded on
 * demand. In place of i18next (~15 kB gzip) so the landing page stays within its JS budget
 * (docs/decisions/006). docs/product.md §4: held in memory only, never stored.
 */
export function createI18n({ language = 'en', messages = {}, loaders = {} }: Options = {}): I18n {
  const catalogs: Record<Language, Messages> = { en: { ...messages.en }, zh: { ...messages.zh } };
  const inUse = new Set<string>();
  const loads = new Map<string, Promise<void>>();
  const listeners = new Set<() => void>();
  let snapshot = makeSnapshot(language);

  function makeSnapshot(active: Language): I18nSnapshot {
    const t: TFunction = (key: TranslationKey, values?: TranslationValues) =>
      translate(active, catalogs[active], catalogs.en, key, values);
    return { language: active, t };
  }

  function publish(active: Language) {
    snapshot = makeSnapshot(active);
    for (const listener of listeners) listener();
  }

  function load(namespace: string, target: Language): Promise<void> {
    const id = `${namespace}:${target}`;
    let pending = loads.get(id);
    if (!pending) {
      const loader = loaders[namespace]?.[target];
      pending = loader
        ? loader().then((module) => {
            Object.assign(catalogs[target], module.default);
            if (snapshot.language === target) publish(target);
          })
        : // Nothing to load (its messages were given at the start): a promise React's `use` reads
          // as already fulfilled, so a part waiting on it (useNamespace) does not suspend.
          Object.assign(Promise.resolve(), { status: 'fulfilled', value: undefined });
      // A failed load (network) may be tried again by the next caller.
      pending.catch(() => loads.delete(id));
      loads.set(id, pending);
    }
    return pending;
  }

  return {
    getSnapshot: () => snapshot,
    subscribe(listener) {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
    async changeLanguage(target) {
      await Promise.all([...inUse].map((namespace) => load(namespace, target)));
      if (snapshot.language !== target) publish(target);
    },
    async loadNamespaces(namespaces) {
      for (const namespace of namespaces) inUse.add(namespace);
      await Promise.all(namespaces.map((namespace) => load(namespace, snapshot.language)));
    },
    namespace(namespace) {
      inUse.add(namespace);
      return load(namespace, snapshot.language);
    },
    prefetchLanguage(target) {
      for (const namespace of inUse) void load(namespace, target).catch(() => {});
    },
  };
}
