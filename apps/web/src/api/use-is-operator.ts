import { useAppConfig } from './get-app-config.ts';

/** Whether the connected address is one of OPERATOR_ADDRESSES (GET /api/config). */
export function useIsOperator(address: string | undefined): boolean {
  const { data: config } = useAppConfig();
  if (!address) return false;
  return config.operatorAddresses.some((operator) => operator.toLowerCase() === address.toLowerCase());
}
