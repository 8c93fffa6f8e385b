import type { DevnetNodeEvent } from './node';

/** One log line for a node event; errors carry their message only. */
export function describeNodeEvent(event: DevnetNodeEvent): string {
  switch (event.type) {
    case 'replayed':
      return `replayed ${event.blocks} blocks (${event.rejected} rejected) in ${(event.milliseconds / 1000).toFixed(1)} s`;
    case 'listening':
      return `listening on ${event.url}`;
    case 'error':
      return `error in ${event.source}: ${event.error instanceof Error ? event.error.message : String(event.error)}`;
  }
}
