import { type ComponentType, createElement, lazy, useState } from 'react';
import { appI18n } from './app-i18n.ts';
import type { Namespace } from './locale-loaders.ts';

type RouteModule = { Component: ComponentType };

/**
 * A route module (its own chunk, exporting `Component`), shown once it and the messages of its
 * namespaces have loaded. `preload()` fetches both; main.tsx preloads the first page before the
 * first render, and a page that is already here renders at once: React shows no fallback, and
 * does not hold the page back by its 300 ms fallback throttle.
 */
export function lazyRoute<Module extends RouteModule>(
  load: () => Promise<Module>,
  namespaces: Namespace[] = [],
) {
  let loaded: ComponentType | undefined;
  let loading: Promise<Module> | undefined;
  const preload = (): Promise<Module> => {
    loading ??= Promise.all([load(), appI18n.loadNamespaces(namespaces)]).then(
      ([module]) => {
        loaded = module.Component;
        return module;
      },
      (error: unknown) => {
        loading = undefined;
        throw error;
      },
    );
    return loading;
  };
  const Lazy = lazy(() => preload().then((module) => ({ default: module.Component })));

  function Route() {
    // Chosen once per mount: switching between the two would remount the page.
    const [Component] = useState<ComponentType>(() => loaded ?? Lazy);
    return createElement(Component);
  }
  return Object.assign(Route, { preload });
}
