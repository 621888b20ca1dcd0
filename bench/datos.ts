// The generated-year benches' knobs; the generator itself is the server's (the demo company's past uses it too).
export * from '../server/src/demo/datos.ts';

/** The knobs every generated-year bench takes: the catalogue's size, the runs of each read (the writes at most 100), lines per generated document. */
export const N = Number(process.env.BENCH_ARTICLES ?? 100_000);
export const RUNS = Number(process.env.BENCH_RUNS ?? 300);
export const WRITE_RUNS = Math.min(RUNS, 100);
export const LINEAS = 10;
