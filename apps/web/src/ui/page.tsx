import type { ReactNode } from 'react';

/** A page's frame: its document title, one h1 and the content below. */
export function Page({
  title,
  documentTitle,
  before,
  aside,
  children,
}: {
  title: ReactNode;
  documentTitle: string;
  /** Above the heading: a back button, say. */
  before?: ReactNode;
  /** Beside the heading: badges or actions. */
  aside?: ReactNode;
  children?: ReactNode;
}) {
  return (
    <div className="mx-auto w-full max-w-6xl px-4 py-6 sm:py-10">
      <title>{documentTitle}</title>
      {before}
      <div className="mb-6 flex flex-wrap items-center justify-between gap-3">
        <h1 className="text-2xl font-bold tracking-tight sm:text-3xl">{title}</h1>
        {aside}
      </div>
      {children}
    </div>
  );
}
