import { FastifyOtelInstrumentation } from '@fastify/otel';
import { context, SpanKind, SpanStatusCode, trace, type Span } from '@opentelemetry/api';
import { AsyncLocalStorageContextManager } from '@opentelemetry/context-async-hooks';
import { OTLPTraceExporter } from '@opentelemetry/exporter-trace-otlp-http';
import { defaultResource, resourceFromAttributes } from '@opentelemetry/resources';
import {
  BatchSpanProcessor,
  NodeTracerProvider,
  ParentBasedSampler,
  TraceIdRatioBasedSampler,
} from '@opentelemetry/sdk-trace-node';
import type { FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';
import type { LogEvent } from 'kysely';
import { urlWithoutCredentials } from '../http/request-log.ts';
import type { Tracing, TracingConfig } from './tracing.ts';

/** Routes whose spans would be noise: probes and scrapes every few seconds. */
const UNTRACED_ROUTES = new Set(['/healthz', '/readyz', '/metrics']);
/** A statement's text in its span, at most this long (an `in (?, ?, …)` list can be long). */
const SQL_TEXT_MAX = 2_000;

/**
 * The spans' way from one async step to the next (AsyncLocalStorage). It is the process's: the
 * OpenTelemetry API keeps one, and every app of the process shares it; it is set once and left.
 */
function ensureContextManager(): void {
  if (contextManagerSet) return;
  context.setGlobalContextManager(new AsyncLocalStorageContextManager().enable());
  contextManagerSet = true;
}
let contextManagerSet = false;

function failed(span: Span, error: unknown): void {
  const message = error instanceof Error ? error.message : String(error);
  span.recordException(error instanceof Error ? error : message);
  span.setStatus({ code: SpanStatusCode.ERROR, message });
}

/**
 * One app's tracer provider, kept to itself (never registered as the process's global, so apps
 * built side by side do not share one), batching spans to `<endpoint>/v1/traces`. No incoming
 * `traceparent` is honoured: the site's callers are the public, and a caller who could mark its
 * requests as sampled could fill the trace store.
 */
export function startOpenTelemetry(config: TracingConfig): Tracing {
  ensureContextManager();
  const exporter = new OTLPTraceExporter({
    url: `${config.endpoint.replace(/\/+$/, '')}/v1/traces`,
    headers: config.headers,
  });
  const provider = new NodeTracerProvider({
    resource: defaultResource().merge(
      resourceFromAttributes({ 'service.name': config.serviceName }),
    ),
    sampler: new ParentBasedSampler({ root: new TraceIdRatioBasedSampler(config.sampleRatio) }),
    spanProcessors: [new BatchSpanProcessor(exporter)],
  });
  const tracer = provider.getTracer('daily-grind');

  const instrumentation = new FastifyOtelInstrumentation({
    // A span for the request and one for its handler; the hooks' own spans (a dozen a request,
    // each a few microseconds) would bury the SQL and RPC spans that say where the time went.
    instrumentHooks: false,
    ignorePaths: ({ url }) => UNTRACED_ROUTES.has(url),
    requestHook: (span, request) => {
      span.updateName(`${request.method} ${request.routeOptions.url ?? 'unmatched'}`);
      // @fastify/otel records the URL as it came; the logs' rule applies to traces too.
      span.setAttribute('url.path', urlWithoutCredentials(request.url.split('?', 1)[0]!));
    },
  });
  instrumentation.setTracerProvider(provider);

  const plugin = fp(
    async (app: FastifyInstance) => {
      await app.register(instrumentation.plugin());
      // After @fastify/otel's own onRequest hook, which starts the request's span.
      app.addHook('onRequest', (request, reply, done) => {
        const { span } = request.opentelemetry();
        if (span) {
          request.log = request.log.child({ trace_id: span.spanContext().traceId });
          reply.log = request.log;
        }
        done();
      });
      app.addHook('onClose', async () => {
        instrumentation.disable();
        await provider.shutdown();
      });
    },
    { name: 'tracing' },
  );

  return {
    plugin,
    sqlLog: (system) => (event: LogEvent) => {
      const parent = context.active();
      // Start-up's migrations, the maintenance timer, an untraced probe: no trace to join.
      if (trace.getSpan(parent) === undefined) return;
      const end = performance.timeOrigin + performance.now();
      const text = event.query.sql;
      const operation = /^\s*(\w+)/.exec(text)?.[1]?.toUpperCase() ?? 'SQL';
      const span = tracer.startSpan(
        operation,
        {
          kind: SpanKind.CLIENT,
          startTime: end - event.queryDurationMillis,
          attributes: {
            'db.system.name': system,
            'db.operation.name': operation,
            'db.query.text': text.length > SQL_TEXT_MAX ? `${text.slice(0, SQL_TEXT_MAX)}…` : text,
          },
        },
        parent,
      );
      if (event.level === 'error') failed(span, event.error);
      span.end(end);
    },
    span: (name, attributes, work) =>
      trace.getSpan(context.active()) === undefined
        ? work()
        : tracer.startActiveSpan(name, { kind: SpanKind.CLIENT, attributes }, async (span) => {
            try {
              return await work();
            } catch (error) {
              failed(span, error);
              throw error;
            } finally {
              span.end();
            }
          }),
  };
}
