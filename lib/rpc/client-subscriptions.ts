/**
 * Subscription bookkeeping for the RPC client: the local listeners per event and the scope the node currently sends
 * this connection. Several listeners share one node subscription; UtxosChanged listeners get only their own addresses
 * (empty list = all), VirtualChainChanged listeners that did not ask for accepted ids get none. Payloads are shared
 * between listeners and must not be mutated.
 *
 * Invariants: the node's scope only ever moves toward what the listeners need, one subscribe or unsubscribe at a
 * time per event (steps never interleave), and a step is recorded only if the connection it was sent on is still the
 * current one. kaspad forgets subscriptions with the connection, so a lost connection empties the recorded scope and
 * the next one is brought back up to what the listeners need.
 */
import type { RpcConnectionState } from './client-connection';
import { RpcUnreachableError } from './errors';
import type { JsonValue } from './json';
import type { RpcAddress, RpcEventName, RpcNotifications, RpcScope, RpcScopes, RpcUtxosByAddressesEntry } from './types';

export type Unsubscribe = () => Promise<void>;

interface ListenerEntry {
  readonly event: RpcEventName;
  readonly callback: (payload: never) => void;
  /** UtxosChanged: the addresses this listener wants; empty = all. */
  readonly addresses: ReadonlySet<RpcAddress>;
  /** VirtualChainChanged: whether this listener wants accepted transaction ids. */
  readonly includeAcceptedTransactionIds: boolean;
}

type UtxosScope = { kind: 'all' } | { kind: 'selected'; addresses: ReadonlySet<RpcAddress> };

/** What the node currently sends this connection, per event; absent = nothing. */
type ServerScopes = {
  generic: Set<RpcEventName>;
  virtualChainChanged: { include: boolean } | undefined;
  utxosChanged: UtxosScope | undefined;
};

interface ScopeStep {
  method: 'subscribe' | 'unsubscribe';
  scope: RpcScope;
  apply: () => void;
}

export interface SubscriptionsOptions {
  send: (method: string, params: unknown, timeoutMs: number) => Promise<JsonValue>;
  requestTimeoutMs: number;
  state: () => RpcConnectionState;
  reportError: (error: unknown) => void;
}

export interface Subscriptions {
  subscribe<E extends RpcEventName>(
    event: E,
    params: RpcScopes[E],
    listener: (payload: RpcNotifications[E]) => void,
  ): Promise<Unsubscribe>;
  deliver<E extends RpcEventName>(event: E, payload: RpcNotifications[E]): void;
  /** The connection opened: asks the node again for every event someone listens to. */
  resubscribeAll(): void;
  /** The connection was lost, and the node's subscriptions with it. */
  forgetServerScopes(): void;
}

function difference<T>(a: ReadonlySet<T>, b: ReadonlySet<T>): T[] {
  return [...a].filter((item) => !b.has(item));
}

export function createSubscriptions(options: SubscriptionsOptions): Subscriptions {
  const { send, requestTimeoutMs, reportError } = options;
  const listeners = new Map<RpcEventName, Set<ListenerEntry>>();
  let server: ServerScopes = { generic: new Set(), virtualChainChanged: undefined, utxosChanged: undefined };
  const scopeQueues = new Map<RpcEventName, Promise<void>>();

  function deliver<E extends RpcEventName>(event: E, payload: RpcNotifications[E]): void {
    const entries = listeners.get(event);
    if (entries === undefined) return;
    for (const entry of [...entries]) {
      const view = viewFor(entry, payload);
      if (view === undefined) continue;
      try {
        (entry.callback as (payload: RpcNotifications[E]) => void)(view);
      } catch (error) {
        reportError(error);
      }
    }
  }

  function viewFor<E extends RpcEventName>(entry: ListenerEntry, payload: RpcNotifications[E]) {
    if (entry.event === 'UtxosChanged' && entry.addresses.size > 0) {
      const utxos = payload as RpcNotifications['UtxosChanged'];
      const watched = (item: RpcUtxosByAddressesEntry) => item.address !== null && entry.addresses.has(item.address);
      const added = utxos.added.filter(watched);
      const removed = utxos.removed.filter(watched);
      if (added.length === 0 && removed.length === 0) return undefined;
      return { added, removed } as RpcNotifications[E];
    }
    if (entry.event === 'VirtualChainChanged' && !entry.includeAcceptedTransactionIds) {
      const chain = payload as RpcNotifications['VirtualChainChanged'];
      if (chain.acceptedTransactionIds.length > 0) {
        return { ...chain, acceptedTransactionIds: [] } as unknown as RpcNotifications[E];
      }
    }
    return payload;
  }

  function desiredUtxos(entries: ReadonlySet<ListenerEntry>): UtxosScope | undefined {
    if (entries.size === 0) return undefined;
    const addresses = new Set<RpcAddress>();
    for (const entry of entries) {
      if (entry.addresses.size === 0) return { kind: 'all' };
      for (const address of entry.addresses) addresses.add(address);
    }
    return { kind: 'selected', addresses };
  }

  /** The next subscribe/unsubscribe that brings the node's scope for `event` closer to what listeners need. */
  function nextStep(event: RpcEventName): ScopeStep | undefined {
    const entries = listeners.get(event) ?? new Set<ListenerEntry>();
    if (event === 'UtxosChanged') {
      const current = server.utxosChanged;
      const wanted = desiredUtxos(entries);
      const step = (method: ScopeStep['method'], addresses: RpcAddress[], next: UtxosScope | undefined): ScopeStep => ({
        method,
        scope: { UtxosChanged: { addresses } },
        apply: () => {
          server.utxosChanged = next;
        },
      });
      if (wanted === undefined) return current === undefined ? undefined : step('unsubscribe', [], undefined);
      if (wanted.kind === 'all') return current?.kind === 'all' ? undefined : step('subscribe', [], wanted);
      if (current?.kind !== 'selected') return step('subscribe', [...wanted.addresses], wanted);
      const added = difference(wanted.addresses, current.addresses);
      if (added.length > 0) return step('subscribe', added, { kind: 'selected', addresses: new Set([...current.addresses, ...added]) });
      const removed = difference(current.addresses, wanted.addresses);
      if (removed.length > 0) return step('unsubscribe', removed, wanted);
      return undefined;
    }
    if (event === 'VirtualChainChanged') {
      const current = server.virtualChainChanged;
      if (entries.size === 0) {
        if (current === undefined) return undefined;
        return {
          method: 'unsubscribe',
          scope: { VirtualChainChanged: { include_accepted_transaction_ids: current.include } },
          apply: () => {
            server.virtualChainChanged = undefined;
          },
        };
      }
      const include = [...entries].some((entry) => entry.includeAcceptedTransactionIds);
      if (current?.include === include) return undefined;
      return {
        method: 'subscribe',
        scope: { VirtualChainChanged: { include_accepted_transaction_ids: include } },
        apply: () => {
          server.virtualChainChanged = { include };
        },
      };
    }
    const active = server.generic.has(event);
    if (active === entries.size > 0) return undefined;
    return {
      method: active ? 'unsubscribe' : 'subscribe',
      scope: { [event]: {} } as RpcScope,
      apply: () => {
        if (active) server.generic.delete(event);
        else server.generic.add(event);
      },
    };
  }

  /** Runs after any earlier reconciliation of the same event, so steps never interleave. */
  function reconcile(event: RpcEventName): Promise<void> {
    const run = async () => {
      for (let step = nextStep(event); step !== undefined; step = nextStep(event)) {
        const scopes = server;
        await send(step.method, step.scope, requestTimeoutMs);
        if (scopes === server) step.apply();
      }
    };
    const previous = scopeQueues.get(event) ?? Promise.resolve();
    const next = previous.then(run, run);
    scopeQueues.set(
      event,
      next.catch(() => {}),
    );
    return next;
  }

  async function subscribe<E extends RpcEventName>(
    event: E,
    params: RpcScopes[E],
    listener: (payload: RpcNotifications[E]) => void,
  ): Promise<Unsubscribe> {
    const scope = params as Partial<RpcScopes['UtxosChanged'] & RpcScopes['VirtualChainChanged']>;
    const entry: ListenerEntry = {
      event,
      callback: listener as (payload: never) => void,
      addresses: new Set(scope.addresses ?? []),
      includeAcceptedTransactionIds: scope.include_accepted_transaction_ids ?? false,
    };
    const entries = listeners.get(event) ?? new Set<ListenerEntry>();
    listeners.set(event, entries);
    entries.add(entry);
    try {
      await reconcile(event);
    } catch (error) {
      if (!(error instanceof RpcUnreachableError) || options.state() === 'closed') {
        entries.delete(entry);
        reconcile(event).catch(reportError);
        throw error;
      }
    }
    let removed = false;
    return async () => {
      if (removed) return;
      removed = true;
      entries.delete(entry);
      await reconcile(event).catch((error) => {
        if (!(error instanceof RpcUnreachableError)) reportError(error);
      });
    };
  }

  return {
    subscribe,
    deliver,
    resubscribeAll() {
      for (const event of listeners.keys()) reconcile(event).catch(reportError);
    },
    forgetServerScopes() {
      server = { generic: new Set(), virtualChainChanged: undefined, utxosChanged: undefined };
    },
  };
}
