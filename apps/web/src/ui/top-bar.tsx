import type { ReactNode } from 'react';
import { LanguageToggle } from './language-toggle.tsx';
import { Logo } from './logo.tsx';

/** docs/product.md §2 "Shared top bar": logo to /, language toggle, and the wallet area given by the app. */
export function TopBar({ walletArea }: { walletArea: ReactNode }) {
  return (
    <header className="sticky top-0 z-40 border-b border-line bg-bg/90 backdrop-blur">
      <div className="mx-auto flex h-16 max-w-6xl items-center justify-between gap-2 px-4">
        <Logo compact />
        <div className="flex min-w-0 items-center gap-2">
          <LanguageToggle />
          {walletArea}
        </div>
      </div>
    </header>
  );
}
