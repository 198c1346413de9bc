import { type ComponentType, lazy } from 'react';
import { appI18n } from './app-i18n.ts';
import type { Namespace } from './locale-loaders.ts';

/**
 * A route module (its own chunk, exporting `Component`), shown once it and the messages of its
 * namespaces have loaded.
 */
export function lazyRoute(load: () => Promise<{ Component: ComponentType }>, namespaces: Namespace[] = []) {
  return lazy(async () => {
    const [module] = await Promise.all([load(), appI18n.loadNamespaces(namespaces)]);
    return { default: module.Component };
  });
}
