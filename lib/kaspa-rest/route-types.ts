/** The shapes every /kaspa-rest route shares: what it reads (the index, the node, names, prices), takes and answers. */
import { type AnnouncedSubmit, type Checkpoint, type Queryable } from '../db';
import { type AddressPrefix } from '../kaspa/address';
import type { KaspaRestRouteId } from '../api/keys/costs';
import type { RpcClient } from '../rpc';
import type { KasUsdSource } from '../tokens/kas-usd';
import { Parameters } from './errors';
import type { AddressName } from './names';
import type { IndexStats } from './stats';


export interface KaspaRestData {
  db: Queryable;
  rpc: Pick<RpcClient, 'call'>;
  addressPrefix(): Promise<AddressPrefix>;
  virtualBlueScore(): Promise<bigint>;
  indexedTip(): Promise<Checkpoint | null>;
  stats: IndexStats;
  names(): Promise<AddressName[]>;
  kasUsd?: KasUsdSource;
  /** Announces accepted submissions on the stream, as /v1 does; absent: not announced. */
  announceSubmission?: AnnouncedSubmit;
  /** The index counts as synced while its checkpoint lags the node's sink by at most this much. */
  healthMaxLagSeconds: number;
}

export interface RestInput {
  data: KaspaRestData;
  /** Path parameters, decoded. */
  params: Record<string, string>;
  parameters: Parameters;
  body: unknown;
  now: number;
}

export interface RestResult {
  body: unknown;
  status?: number;
  /** The body is sent as text/plain (kaspa-rest-server's PlainTextResponse routes). */
  text?: boolean;
  headers?: Record<string, string>;
  /** Cache-Control max-age, private; kaspa-rest-server's default of 8 s when absent. */
  maxAge?: number;
}

export interface RestRoute {
  id: KaspaRestRouteId;
  /** Query parameters the route declares: kaspa-rest-server's strict routes refuse any other with 422. */
  strictQuery?: readonly string[];
  handler(input: RestInput): Promise<RestResult>;
}
