import type { EIP1193RequestFn, HttpTransport } from 'viem';

/**
 * viem's HTTP transport to `url`, its code loaded with the first request. That code (request
 * retries, the JSON-RPC error classes, batching) is ~2 kB gzip that every app route loaded at
 * start, though only reading the chain needs it: a wallet's balance or code, a payment's receipt.
 * A visitor without a wallet never reads it (decision 006, JS budget). Until it has loaded, the
 * transport describes itself as `http(url)` does with the same client settings; every request then
 * goes through `http(url)` itself, with viem's own retries and errors.
 */
export function lazyHttp(url: string): HttpTransport {
  return (params) => {
    let loading: Promise<ReturnType<HttpTransport>> | undefined;
    const transport = () => (loading ??= import('./http-transport.ts').then(({ http }) => http(url)(params)));
    // The retried request (what the client calls) and the bare one (transport.request, as viem's).
    const request: EIP1193RequestFn = async (args, options) => (await transport()).request(args, options);
    const bareRequest: EIP1193RequestFn = async (args, options) =>
      (await transport()).config.request(args, options);
    return {
      // The defaults of viem's createTransport and http(), which this stands in for.
      config: {
        key: 'http',
        methods: undefined,
        name: 'HTTP JSON-RPC',
        request: bareRequest,
        retryCount: params.retryCount ?? 3,
        retryDelay: 150,
        timeout: params.timeout ?? 10_000,
        type: 'http',
      },
      request,
      value: { fetchOptions: undefined, url },
    };
  };
}
