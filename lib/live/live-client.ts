/**
 * One browser connection of the live hub: the events replayed on connect, then a bounded queue of the events
 * broadcast since. Invariants: a client waits on at most one `next` at a time and an event goes to that waiter
 * before the queue; a client `maxQueued` events behind is finished as 'slow' (its EventSource reconnects) rather than
 * buffered without limit; a client finishes once, and from then on `next` resolves null.
 */
import type { LiveEvent } from '../web/live-types';

export type LiveCloseReason = 'closed' | 'slow' | 'hub-closed';

export interface LiveClient {
  /** The next event; 'idle' when none came within `timeoutMs`; null once the client is closed. */
  next(timeoutMs: number): Promise<LiveEvent | 'idle' | null>;
  close(): void;
  readonly closeReason: LiveCloseReason | undefined;
}

/** The hub's side of a client: what it broadcasts to it and how it ends it. */
export interface HubClient extends LiveClient {
  push(event: LiveEvent): void;
  finish(reason: LiveCloseReason): void;
}

/** `onFinish` runs once, when the client finishes for any reason. */
export function createLiveClient(maxQueued: number, replay: LiveEvent[], onFinish: (client: HubClient) => void): HubClient {
  const queue: LiveEvent[] = [];
  let closeReason: LiveCloseReason | undefined;
  let waiter: ((event: LiveEvent | 'idle' | null) => void) | undefined;

  const client: HubClient = {
    get closeReason() {
      return closeReason;
    },

    push(event) {
      if (waiter !== undefined) {
        const waiting = waiter;
        waiter = undefined;
        waiting(event);
        return;
      }
      if (queue.length >= maxQueued) {
        client.finish('slow');
        return;
      }
      queue.push(event);
    },

    next(timeoutMs) {
      const ready = replay.shift() ?? queue.shift();
      if (ready !== undefined) return Promise.resolve(ready);
      if (closeReason !== undefined) return Promise.resolve(null);
      return new Promise((resolve) => {
        const timer = setTimeout(() => {
          waiter = undefined;
          resolve('idle');
        }, timeoutMs);
        waiter = (event) => {
          clearTimeout(timer);
          resolve(event);
        };
      });
    },

    finish(reason) {
      if (closeReason !== undefined) return;
      closeReason = reason;
      replay.length = 0;
      queue.length = 0;
      onFinish(client);
      const waiting = waiter;
      waiter = undefined;
      waiting?.(null);
    },

    close() {
      client.finish('closed');
    },
  };
  return client;
}
