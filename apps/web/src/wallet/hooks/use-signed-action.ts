import { type QueryKey, useMutation, useQueryClient } from '@tanstack/react-query';
import { getAddress, type Hex, type TypedDataDefinition } from 'viem';
import { useSignTypedData } from 'wagmi';
import { useAppConfig } from '#api/get-app-config.ts';
import { useTranslation } from '#i18n/use-translation.ts';
import { ApiError } from '#lib/api-client.ts';
import { apiErrorMessage } from '#lib/error-message.ts';
import { toast } from '#ui/toast.ts';
import { walletErrorMessage } from '../utils/wallet-error-message.ts';

/** The connected wallet as a signed request needs it: who signs, on which chain, and the signing. */
export type TypedDataSigner = {
  address: string;
  chainId: number;
  signTypedData: (typed: TypedDataDefinition) => Promise<Hex>;
};

/**
 * A request the connected wallet signs (EIP-712) and the server carries out: operator actions
 * (docs/decisions/007) and verdict flags (decision 011). `action` builds the typed data, has
 * `signer` sign it on the deployment's chain and posts it. A failure is toasted in the API's
 * words (by error code), else the wallet's, else `failedMessage`; `invalidates` is refetched once
 * the request is over, whether it worked or not, since a rejected one may mean the page is stale.
 */
export function useSignedAction<Variables, Result>(options: {
  address: string;
  action: (signer: TypedDataSigner, variables: Variables) => Promise<Result>;
  onSuccess: (result: Result) => void;
  failedMessage: string;
  invalidates: QueryKey;
}) {
  const { t } = useTranslation();
  const queryClient = useQueryClient();
  const { data: config } = useAppConfig();
  const signTypedData = useSignTypedData();
  const { address, failedMessage } = options;
  return useMutation({
    mutationFn: (variables: Variables) =>
      options.action(
        {
          address,
          chainId: config.chainId,
          signTypedData: (typed) => signTypedData.mutateAsync({ account: getAddress(address), ...typed }),
        },
        variables,
      ),
    onSuccess: options.onSuccess,
    onError: (error) =>
      toast.error(
        error instanceof ApiError
          ? apiErrorMessage(t, error, failedMessage)
          : (walletErrorMessage(error) ?? failedMessage),
      ),
    onSettled: () => queryClient.invalidateQueries({ queryKey: options.invalidates }),
  });
}
