// The package ships no types; this is the part of its API the ranker uses (rank-passages.ts).
declare module 'wink-bm25-text-search' {
  type Engine = {
    defineConfig(config: {
      fldWeights: Record<string, number>;
      bm25Params?: { k1?: number; b?: number; k?: number };
    }): boolean;
    definePrepTasks(tasks: Array<(input: never) => unknown>, field?: string): number;
    addDoc(doc: Record<string, string>, id: string | number): number;
    consolidate(precision?: number): boolean;
    /** [id, score] pairs, best first. */
    search(text: string, limit?: number): Array<[string, number]>;
  };
  const bm25: () => Engine;
  export default bm25;
}
