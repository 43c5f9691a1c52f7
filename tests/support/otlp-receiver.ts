import http from 'node:http';
import { closeHttpServer, listenOnLoopback } from './loopback.ts';

/** One span as OTLP/HTTP's JSON carries it, with the attributes flattened to values. */
export interface ReceivedSpan {
  traceId: string;
  spanId: string;
  /** '' for a root span. */
  parentSpanId: string;
  name: string;
  /** SPAN_KIND_*: 1 internal, 2 server, 3 client. */
  kind: number;
  attributes: Record<string, string | number | boolean>;
  status: { code?: number; message?: string };
  /** The resource's `service.name`. */
  service: string;
}

export interface OtlpReceiver {
  /** What OTEL_EXPORTER_OTLP_ENDPOINT is set to: `http://127.0.0.1:<port>`. */
  readonly endpoint: string;
  /** Every span received so far, in arrival order. */
  readonly spans: ReceivedSpan[];
  /** The headers of the last export, lower-case. */
  readonly lastHeaders: http.IncomingHttpHeaders;
  close(): Promise<void>;
}

type AnyValue = {
  stringValue?: string;
  intValue?: string | number;
  boolValue?: boolean;
  doubleValue?: number;
};
interface KeyValue {
  key: string;
  value: AnyValue;
}

const valueOf = (v: AnyValue) =>
  v.stringValue ??
  (v.intValue !== undefined ? Number(v.intValue) : undefined) ??
  v.boolValue ??
  v.doubleValue ??
  '';

const flatten = (attributes: KeyValue[] = []) =>
  Object.fromEntries(attributes.map((a) => [a.key, valueOf(a.value)]));

/**
 * A local OpenTelemetry collector for tests: `POST /v1/traces` with OTLP/HTTP JSON (what
 * @opentelemetry/exporter-trace-otlp-http sends), answered 200 with an empty partial success.
 * Anything else is answered 404 or 415, so a test sees a misaddressed or re-encoded export.
 */
export async function startOtlpReceiver(): Promise<OtlpReceiver> {
  const spans: ReceivedSpan[] = [];
  let lastHeaders: http.IncomingHttpHeaders = {};
  const server = http.createServer((req, res) => {
    if (req.method !== 'POST' || req.url !== '/v1/traces') return void res.writeHead(404).end();
    if (!req.headers['content-type']?.startsWith('application/json')) {
      return void res.writeHead(415).end();
    }
    lastHeaders = req.headers;
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => {
      const body = JSON.parse(Buffer.concat(chunks).toString('utf8')) as {
        resourceSpans: {
          resource?: { attributes?: KeyValue[] };
          scopeSpans: {
            spans: (Omit<ReceivedSpan, 'attributes' | 'service'> & { attributes?: KeyValue[] })[];
          }[];
        }[];
      };
      for (const resourceSpans of body.resourceSpans) {
        const service = String(flatten(resourceSpans.resource?.attributes)['service.name'] ?? '');
        for (const scope of resourceSpans.scopeSpans) {
          for (const span of scope.spans) {
            spans.push({
              traceId: span.traceId,
              spanId: span.spanId,
              parentSpanId: span.parentSpanId ?? '',
              name: span.name,
              kind: span.kind,
              attributes: flatten(span.attributes),
              status: span.status ?? {},
              service,
            });
          }
        }
      }
      res.writeHead(200, { 'content-type': 'application/json' }).end('{}');
    });
  });
  const port = await listenOnLoopback(server);
  return {
    endpoint: `http://127.0.0.1:${port}`,
    spans,
    get lastHeaders() {
      return lastHeaders;
    },
    close: () => closeHttpServer(server),
  };
}
