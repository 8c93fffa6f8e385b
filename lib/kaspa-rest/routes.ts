/**
 * The kaspa-rest-server routes dagboard serves, each as kaspa-rest-server's `endpoints/*.py` answers it, from the
 * index (lib/db) and the node (the same ones /v1 reads). Where it needs data it takes from tables its exporters fill
 * (transaction counts, top addresses, distribution), the index computes it (stats.ts). Rules where dagboard differs:
 *   - blocks come from the index (not the node): a block the index does not hold is 404; `extra.color` is blue for a
 *     chain block, else the node's current colour (null when the node cannot tell);
 *   - transactions come from the index; resolve_previous_outpoints light/full use the spent outputs the index stores;
 *   - /info/market-data and /info/price answer from the configured KAS/USD source (on the devnet, labelled by
 *     `source`), kaspa-rest-server's CoinGecko shape; without a source they answer as its DISABLE_PRICE does;
 *   - /info/halving's nextHalvingTimestamp is in seconds, as kaspa-rest-server computes it.
 */
import { ADDRESS_ROUTES } from './address-routes';
import { BLOCK_ROUTES } from './block-routes';
import { INFO_ROUTES } from './info-routes';
import { NODE_ROUTES } from './node-routes';
import { kaspaRestOpenApi } from './openapi';
import type { RestRoute } from './route-types';
import { TRANSACTION_ROUTES } from './transaction-routes';

export const KASPA_REST_ROUTES: readonly RestRoute[] = [
  ...INFO_ROUTES,
  ...BLOCK_ROUTES,
  ...TRANSACTION_ROUTES,
  ...NODE_ROUTES,
  ...ADDRESS_ROUTES,
  { id: 'GET /kaspa-rest/openapi.json', handler: async () => ({ body: kaspaRestOpenApi(), maxAge: 3600 }) },
  {
    id: 'GET /kaspa-rest/ping',
    async handler({ data }) {
      const [node, database] = await Promise.all([
        data.rpc.call('getInfo', {}).catch(() => null),
        data.db.query('SELECT 1').then(() => true, () => false),
      ]);
      const body = {
        kaspad: {
          is_online: node !== null,
          is_wrpc: true,
          server_version: node?.serverVersion ?? null,
          is_utxo_indexed: node?.isUtxoIndexed ?? null,
          is_synced: node?.isSynced ?? null,
        },
        database: { is_online: database },
      };
      return { body, status: database && node?.isSynced === true ? 200 : 503, maxAge: 0 };
    },
  },
];
