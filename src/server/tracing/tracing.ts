import type { FastifyPluginAsync } from 'fastify';
import type { KyselyConfig } from 'kysely';
import type { AppConfig } from '../config.ts';

export type TracingConfig = NonNullable<AppConfig['tracing']>;

export type SpanAttributes = Record<string, string | number | boolean>;

/**
 * OpenTelemetry for one app (docs/decisions/026-metrics-and-traces.md): its spans go to an
 * OTLP/HTTP endpoint. Only this interface is loaded when tracing is off; the SDK, the exporter
 * and @fastify/otel are imported by `startTracing` when OTEL_EXPORTER_OTLP_ENDPOINT is set.
 */
export interface Tracing {
  /**
   * A span per request named by its route (@fastify/otel), the trace id in its log lines; sends
   * what is left when the app closes.
   */
  readonly plugin: FastifyPluginAsync;
  /** Kysely's `log` option: every statement a span of whatever runs it (the request's). */
  sqlLog(system: 'sqlite' | 'postgresql'): NonNullable<KyselyConfig['log']>;
  /** Runs `work` in a span, a child of the active one; a failure marks the span and is thrown on. */
  span<T>(name: string, attributes: SpanAttributes, work: () => Promise<T>): Promise<T>;
}

/** Tracing when the config asks for it (its modules imported then), or undefined. */
export async function startTracing(config: AppConfig['tracing']): Promise<Tracing | undefined> {
  if (config === undefined) return undefined;
  const { startOpenTelemetry } = await import('./open-telemetry.ts');
  return startOpenTelemetry(config);
}

type AsyncMethodNames<T> = {
  [K in keyof T]: T[K] extends (...args: never[]) => Promise<unknown> ? K : never;
}[keyof T];

/**
 * `target` with each named method run in a span `<prefix> <method>` (a Solana RPC call, an object
 * store call); `target` itself when tracing is off. The arguments stay out of the span: they hold
 * object keys and signatures, and the RPC's URL may carry a provider's key.
 */
export function traced<T extends object>(
  tracing: Tracing | undefined,
  prefix: string,
  target: T,
  methods: readonly AsyncMethodNames<T>[],
  attributes: SpanAttributes = {},
): T {
  if (tracing === undefined) return target;
  const names = new Set<PropertyKey>(methods);
  return new Proxy(target, {
    get(object, property) {
      const value: unknown = Reflect.get(object, property, object);
      if (typeof value !== 'function') return value;
      if (!names.has(property)) return value.bind(object);
      return (...args: unknown[]) =>
        tracing.span(`${prefix} ${String(property)}`, attributes, () =>
          (value as (...a: unknown[]) => Promise<unknown>).apply(object, args),
        );
    },
  });
}
