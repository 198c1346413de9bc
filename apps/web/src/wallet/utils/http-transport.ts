// The lazy chunk of lazy-http.ts: viem's HTTP transport and nothing else of viem's entry module.
export { http } from 'viem';
