import { type ComponentType, lazy } from 'react';

/**
 * React.lazy with a `preload()` to start fetching the chunk early (on hover or focus of what
 * opens it), for parts shown only after an interaction: dialogs, menus (docs/decisions/006, JS budget).
 */
export function lazyWithPreload<Props extends object>(load: () => Promise<ComponentType<Props>>) {
  let loading: Promise<{ default: ComponentType<Props> }> | undefined;
  const preload = () => {
    loading ??= load().then(
      (component) => ({ default: component }),
      (error: unknown) => {
        loading = undefined;
        throw error;
      },
    );
    return loading;
  };
  return Object.assign(lazy(preload), { preload });
}
