/**
 * LISTEN on PostgreSQL for Db.listen: one dedicated connection (a pooled one would lose its LISTEN when returned),
 * reconnected after `reconnectMs` whenever it fails. `onNotify` runs for each notification and after every
 * (re)connection, since notifications sent while it was down are lost: the listener's user reads what it missed.
 */
import pg from 'pg';

export interface Listener {
  close(): Promise<void>;
}

export function listenOnPostgres(
  url: string,
  channel: string,
  onNotify: () => void,
  onError: (error: Error) => void,
  reconnectMs = 1_000,
): Listener {
  let client: pg.Client | undefined;
  let closed = false;
  let retry: NodeJS.Timeout | undefined;

  const reconnect = () => {
    if (closed || retry !== undefined) return;
    retry = setTimeout(() => {
      retry = undefined;
      void connect();
    }, reconnectMs);
    retry.unref();
  };

  const failed = (current: pg.Client, error: unknown) => {
    if (closed) return;
    onError(error instanceof Error ? error : new Error(String(error)));
    void current.end().catch(() => undefined);
    reconnect();
  };

  async function connect(): Promise<void> {
    const current = new pg.Client({ connectionString: url });
    client = current;
    current.on('notification', () => onNotify());
    current.on('error', (error) => failed(current, error));
    try {
      await current.connect();
      await current.query(`LISTEN ${pg.escapeIdentifier(channel)}`);
      if (closed) await current.end();
      else onNotify();
    } catch (error) {
      failed(current, error);
    }
  }

  void connect();
  return {
    async close() {
      closed = true;
      clearTimeout(retry);
      await client?.end().catch(() => undefined);
    },
  };
}
