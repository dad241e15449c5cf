// autocannon 9 ships no types and @types/autocannon is not installed: the part of its
// programmatic API that run.ts uses. (The package is CommonJS; the default import is
// `module.exports`, the function below.)
declare module 'autocannon' {
  export interface Options {
    url: string;
    connections?: number;
    /** Seconds. */
    duration?: number;
    /** Stop after this many requests instead of after `duration`. */
    amount?: number;
    /** Seconds before a request counts as a timeout. */
    timeout?: number;
    pipelining?: number;
    method?: string;
    headers?: Record<string, string>;
    body?: string;
    title?: string;
    /** Per-request hooks (used by auth.ts): a request built per call, its answer read. */
    requests?: RequestStep[];
  }

  export interface RequestParams {
    method?: string;
    path?: string;
    headers?: Record<string, string>;
    body?: string;
  }

  export interface RequestStep extends RequestParams {
    /** `context` is per connection; return the request to send. */
    setupRequest?: (request: RequestParams, context: Record<string, unknown>) => RequestParams;
    onResponse?: (status: number, body: string, context: Record<string, unknown>) => void;
  }

  /** Percentiles from hdr-histogram-percentiles-obj; latency in ms, requests per second. */
  export interface Histogram {
    average: number;
    mean: number;
    stddev: number;
    min: number;
    max: number;
    total: number;
    p0_001: number;
    p0_01: number;
    p0_1: number;
    p1: number;
    p2_5: number;
    p10: number;
    p25: number;
    p50: number;
    p75: number;
    p90: number;
    p97_5: number;
    p99: number;
    p99_9: number;
    p99_99: number;
    p99_999: number;
  }

  export interface Result {
    title?: string;
    url: string;
    connections: number;
    duration: number;
    start: Date;
    finish: Date;
    errors: number;
    timeouts: number;
    mismatches: number;
    non2xx: number;
    resets: number;
    '1xx': number;
    '2xx': number;
    '3xx': number;
    '4xx': number;
    '5xx': number;
    statusCodeStats: Record<string, { count: number }>;
    latency: Histogram & { totalCount: number };
    requests: Histogram & { sent: number };
    throughput: Histogram;
  }

  export default function autocannon(options: Options): Promise<Result>;
}
