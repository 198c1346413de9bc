/** The value at fraction `p` (0–1) of `sorted` (ascending), nearest rank; 0 for no values. */
export function percentile(sorted: number[], p: number): number {
  if (sorted.length === 0) return 0;
  return sorted[Math.min(sorted.length - 1, Math.ceil(p * sorted.length) - 1)] ?? 0;
}
