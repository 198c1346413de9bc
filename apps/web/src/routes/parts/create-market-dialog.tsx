import type { ComponentProps } from 'react';
import {
  type CreateMarketParts,
  CreateMarketDialog as Dialog,
} from '#features/market-create/components/create-market-dialog.tsx';
import { AnalyzeMarket } from '#features/market-evidence/components/analyze-market.tsx';
import { PriceMarketFields } from '#features/price-markets/components/price-market-fields.tsx';

const PARTS: CreateMarketParts = { PriceFields: PriceMarketFields, Analyze: AnalyzeMarket };

/**
 * The create dialog with a price market's fields and the Analyze button of the evidence feature,
 * composed here (features do not import one another); one chunk, loaded when it is first opened.
 */
export function CreateMarketDialog(props: Omit<ComponentProps<typeof Dialog>, 'parts'>) {
  return <Dialog {...props} parts={PARTS} />;
}
