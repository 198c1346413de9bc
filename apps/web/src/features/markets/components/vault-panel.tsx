import { parseUsdPrice, usdValueOfWei } from '@pm/core/price';
import { Copy, Vault } from 'lucide';
import { usePrice } from '#api/get-price.ts';
import { useVault } from '#api/get-vault.ts';
import { useTranslation } from '#i18n/use-translation.ts';
import { useFormat } from '#lib/use-format.ts';
import { Button } from '#ui/button.tsx';
import { Card } from '#ui/card.tsx';
import { Icon } from '#ui/icon.tsx';
import { Skeleton } from '#ui/skeleton.tsx';
import { toast } from '#ui/toast.ts';

/** docs/product.md §2 Escrow Vault: balance with USD value, address with copy, and what the vault is for. */
export function VaultPanel() {
  const { t } = useTranslation();
  const format = useFormat();
  const vault = useVault();
  const price = usePrice();
  const usd =
    vault.data && price.data
      ? format.usd(usdValueOfWei(BigInt(vault.data.balanceWei), parseUsdPrice(price.data.usd)))
      : null;
  return (
    <Card className="p-4">
      <section aria-labelledby="vault-title" className="flex flex-col gap-2">
        <h2 id="vault-title" className="flex items-center gap-2 text-sm font-semibold text-muted">
          <Icon node={Vault} aria-hidden="true" className="size-4 text-brand" />
          {t('markets.vault.title')}
        </h2>
        {vault.data ? (
          <p className="text-2xl font-bold tabular-nums">
            {format.bnb(vault.data.balanceWei)}
            {usd && <span className="ml-2 text-sm font-normal text-muted">≈ {usd}</span>}
          </p>
        ) : (
          <Skeleton className="h-8 w-40" />
        )}
        {vault.data && (
          <div className="flex items-center gap-2">
            <code className="min-w-0 flex-1 truncate text-xs text-muted" title={vault.data.address}>
              {vault.data.address}
            </code>
            <Button
              variant="ghost"
              size="icon"
              className="size-10"
              aria-label={t('markets.vault.copy')}
              onClick={() => {
                void navigator.clipboard
                  .writeText(vault.data.address)
                  .then(() => toast.success(t('markets.vault.copied')));
              }}
            >
              <Icon node={Copy} aria-hidden="true" className="size-4" />
            </Button>
          </div>
        )}
        <p className="text-xs text-muted">{t('markets.vault.note')}</p>
      </section>
    </Card>
  );
}
