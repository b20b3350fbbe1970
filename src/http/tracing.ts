import { defaultTextMapGetter, ROOT_CONTEXT, SpanKind, SpanStatusCode } from '@opentelemetry/api';
import type { ExportResult } from '@opentelemetry/core';
import type { ReadableSpan, SpanExporter } from '@opentelemetry/sdk-trace';
import type { TracingConfig } from '../config.ts';
import type { Logger } from '../log.ts';
import type { OperationRecord } from './operations.ts';

/** What the server calls: one span per GraphQL operation, made when it finishes. */
export interface Tracing {
  operationFinished(record: OperationRecord): void;
  /**
   * Sends the spans still batched, then stops; a collector that cannot be reached (within
   * OTEL_EXPORTER_OTLP_TIMEOUT, 10 s by default) costs those spans, never the shutdown.
   */
  shutdown(): Promise<void>;
}

/**
 * OpenTelemetry tracing, on when an OTLP endpoint is configured: a SERVER span per GraphQL
 * operation, made from the record its access line is made of (a subscription's span covers
 * its whole life), the child of the caller's W3C `traceparent` when it sent one. Spans leave
 * in batches over OTLP/HTTP. The SDK is loaded only here, so a gateway without tracing does
 * not pay for loading it at start-up.
 */
export async function startTracing(config: TracingConfig, log: Logger): Promise<Tracing> {
  const [{ ExportResultCode, W3CTraceContextPropagator }, { OTLPTraceExporter }, resources, sdk] =
    await Promise.all([
      import('@opentelemetry/core'),
      import('@opentelemetry/exporter-trace-otlp-http'),
      import('@opentelemetry/resources'),
      import('@opentelemetry/sdk-trace'),
    ]);
  const otlp = new OTLPTraceExporter({ url: config.url });
  // The exporter, saying when a batch could not be sent (the SDK alone says nothing).
  const exporter: SpanExporter = {
    export(spans: ReadableSpan[], done: (result: ExportResult) => void) {
      otlp.export(spans, (result) => {
        if (result.code !== ExportResultCode.SUCCESS) {
          log.warn('traces could not be sent', {
            spans: spans.length,
            error: result.error?.message ?? 'unknown',
          });
        }
        done(result);
      });
    },
    shutdown: () => otlp.shutdown(),
    forceFlush: () => otlp.forceFlush(),
  };
  const provider = new sdk.TracerProvider({
    resource: resources.resourceFromAttributes({ 'service.name': config.serviceName }),
    spanProcessors: [new sdk.BatchSpanProcessor({ exporter })],
  });
  const tracer = provider.getTracer('switchboard');
  const propagator = new W3CTraceContextPropagator();
  return {
    operationFinished(record) {
      const parent = propagator.extract(ROOT_CONTEXT, record.traceHeaders, defaultTextMapGetter);
      const name = [record.type, record.name].filter(Boolean).join(' ');
      const span = tracer.startSpan(
        name || 'GraphQL operation',
        {
          kind: SpanKind.SERVER,
          startTime: performance.timeOrigin + record.started,
          attributes: {
            'graphql.operation.name': record.name ?? undefined,
            'graphql.operation.type': record.type ?? undefined,
            'switchboard.request_id': record.requestId,
            'switchboard.transport': record.transport,
            'switchboard.subscription_field': record.field ?? undefined,
            'switchboard.caller_kind': record.caller?.kind,
            'switchboard.credential_id': record.caller?.credentialId ?? undefined,
            'switchboard.result': record.codes[0] ?? 'ok',
            'switchboard.results': record.results,
          },
        },
        parent,
      );
      if (record.codes.length > 0)
        span.setStatus({ code: SpanStatusCode.ERROR, message: record.codes.join(' ') });
      span.end();
    },
    async shutdown() {
      await provider.shutdown().catch(() => {}); // the exporter has said why
    },
  };
}
