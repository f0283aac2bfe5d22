/** The part of autocannon's API bench/catalogue.ts uses (the package ships no types). */
declare module 'autocannon' {
  namespace autocannon {
    interface Options {
      url: string;
      connections?: number;
      duration?: number;
      amount?: number;
      headers?: Record<string, string>;
    }
    interface Histogram {
      average: number;
      total: number;
      p50: number;
      p90: number;
      p99: number;
      max: number;
    }
    interface Result {
      requests: Histogram;
      latency: Histogram;
      throughput: Histogram;
      errors: number;
      timeouts: number;
      non2xx: number;
    }
  }
  function autocannon(
    options: autocannon.Options,
    done: (err: Error | null, result: autocannon.Result) => void,
  ): unknown;
  export default autocannon;
}
