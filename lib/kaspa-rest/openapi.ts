/**
 * The OpenAPI 3.0 document of /kaspa-rest (served at /kaspa-rest/openapi.json): every served route with its
 * parameters and its answer's schema, written from kaspa-rest-server's pydantic models as dagboard serves them.
 */
import { KASPA_REST_ROUTE_COSTS, formatRu, type KaspaRestRouteId } from '../api/keys/costs';

type Schema = Record<string, unknown>;

const str = { type: 'string' };
const nstr = { type: 'string', nullable: true };
const int = { type: 'integer' };
const nint = { type: 'integer', nullable: true };
const num = { type: 'number' };
const bool = { type: 'boolean' };
const decimal = { type: 'string', pattern: '^\\d+$' };
const list = (items: Schema) => ({ type: 'array', items });
const ref = (name: string) => ({ $ref: `#/components/schemas/${name}` });
const object = (properties: Record<string, Schema>, nullable: string[] = []) => ({
  type: 'object',
  required: Object.keys(properties).filter((key) => !nullable.includes(key)),
  properties,
});

const TX_OUTPUT = object({
  transaction_id: str,
  index: int,
  amount: int,
  script_public_key: str,
  script_public_key_address: nstr,
  script_public_key_type: str,
  covenant_id: nstr,
});

const SCHEMAS: Record<string, Schema> = {
  TxOutput: TX_OUTPUT,
  TxInput: object(
    {
      transaction_id: str,
      index: int,
      previous_outpoint_hash: str,
      previous_outpoint_index: str,
      previous_outpoint_resolved: { ...ref('TxOutput'), nullable: true, description: 'with resolve_previous_outpoints=full' },
      previous_outpoint_address: nstr,
      previous_outpoint_amount: nint,
      signature_script: str,
      sig_op_count: str,
      compute_budget: int,
    },
    ['previous_outpoint_resolved'],
  ),
  TxModel: {
    ...object({
      subnetwork_id: str,
      transaction_id: str,
      hash: str,
      mass: str,
      payload: nstr,
      block_hash: list(str),
      block_time: int,
      version: int,
      is_accepted: bool,
      accepting_block_hash: nstr,
      accepting_block_blue_score: nint,
      accepting_block_time: nint,
      inputs: { ...list(ref('TxInput')), nullable: true },
      outputs: { ...list(ref('TxOutput')), nullable: true },
      storage_mass: nstr,
      compute_mass: nstr,
    }),
    required: [],
    description: 'Every key is present unless `fields` names the ones wanted.',
  },
  BlockModel: object({
    header: object({
      version: int,
      hashMerkleRoot: str,
      acceptedIdMerkleRoot: str,
      utxoCommitment: str,
      timestamp: decimal,
      bits: int,
      nonce: decimal,
      daaScore: decimal,
      blueWork: str,
      parents: list(object({ parentHashes: list(str) })),
      blueScore: decimal,
      pruningPoint: str,
    }),
    transactions: { type: 'array', nullable: true, items: { type: 'object' }, description: 'gRPC-JSON transactions (outputs with `amount`)' },
    verboseData: object({
      hash: str,
      difficulty: num,
      selectedParentHash: nstr,
      transactionIds: list(str),
      blueScore: decimal,
      childrenHashes: list(str),
      mergeSetBluesHashes: list(str),
      mergeSetRedsHashes: list(str),
      isChainBlock: bool,
    }),
    extra: { type: 'object', properties: { color: nstr, minerAddress: nstr, minerInfo: str } },
  }),
  BlockdagResponse: object({
    networkName: str,
    blockCount: decimal,
    headerCount: decimal,
    tipHashes: list(str),
    difficulty: num,
    pastMedianTime: decimal,
    virtualParentHashes: list(str),
    pruningPointHash: str,
    virtualDaaScore: decimal,
    sink: str,
  }),
  CoinSupplyResponse: object({ circulatingSupply: decimal, maxSupply: decimal }),
  BlockRewardResponse: object({ blockreward: num }),
  HalvingResponse: object({ nextHalvingTimestamp: { type: 'integer', description: 'epoch seconds' }, nextHalvingDate: str, nextHalvingAmount: num }),
  FeeEstimateResponse: object({
    priorityBucket: ref('FeeEstimateBucket'),
    normalBuckets: list(ref('FeeEstimateBucket')),
    lowBuckets: list(ref('FeeEstimateBucket')),
  }),
  FeeEstimateBucket: object({ feerate: int, estimatedSeconds: num }),
  KaspadInfoResponse: object({ mempoolSize: decimal, serverVersion: str, isUtxoIndexed: bool, isSynced: bool, p2pIdHashed: str }),
  BlueScoreResponse: object({ blueScore: int }),
  HashrateResponse: object({ hashrate: num }),
  VcBlockModel: object({
    hash: str,
    blue_score: int,
    daa_score: int,
    timestamp: int,
    transactions: list(
      object({
        transaction_id: str,
        is_accepted: bool,
        inputs: {
          ...list(
            object({
              previous_outpoint_hash: str,
              previous_outpoint_index: int,
              signature_script: str,
              previous_outpoint_script: { ...str, description: 'with resolveInputs' },
              previous_outpoint_address: { ...str, description: 'with resolveInputs' },
              previous_outpoint_amount: { ...int, description: 'with resolveInputs' },
            }),
          ),
          description: 'left out for a coinbase',
        },
        outputs: list(object({ script_public_key: str, script_public_key_address: str, amount: int })),
      }),
    ),
  }),
  BlockResponse: object({ blockHashes: list(str), blocks: list(ref('BlockModel')) }),
  HashrateHistoryResponse: object({ daaScore: int, blueScore: int, timestamp: int, date_time: str, bits: nint, difficulty: int, hashrate_kh: int }),
  MaxHashrateResponse: object({
    hashrate: num,
    blockheader: object({ hash: str, timestamp: { type: 'string', description: 'ISO 8601, UTC, no offset' }, difficulty: int, daaScore: decimal, blueScore: decimal }),
  }),
  HealthResponse: object({
    kaspadServers: list(object({ kaspadHost: str, serverVersion: str, isUtxoIndexed: bool, isSynced: bool, p2pId: str, blueScore: int })),
    database: object({ isSynced: bool, blueScore: nint, blueScoreDiff: nint, acceptedTxBlockTime: nint, acceptedTxBlockTimeDiff: nint }),
  }),
  MarketData: {
    type: 'object',
    description: 'From the configured KAS/USD source (`source` names it); `{}` without one.',
    properties: {
      current_price: object({ usd: num }),
      price_change_percentage_24h: num,
      market_cap: object({ usd: num }),
      circulating_supply: num,
      last_updated: str,
      source: str,
    },
  },
  PriceResponse: object({ price: num }),
  MarketCapResponse: object({ marketcap: num }),
  BalanceResponse: object({ address: str, balance: int }),
  UtxoResponse: object({
    address: str,
    outpoint: object({ transactionId: str, index: int }),
    utxoEntry: object({ amount: decimal, scriptPublicKey: object({ scriptPublicKey: str }), blockDaaScore: decimal, isCoinbase: bool }),
  }),
  UtxoCountResponse: object({ count: int }),
  TransactionCount: object({ total: int }),
  TransactionCountResponse: object({ timestamp: int, dateTime: str, coinbase: int, regular: int }),
  TxAcceptanceResponse: object(
    { transactionId: str, accepted: bool, acceptingBlockHash: nstr, acceptingBlueScore: nint, acceptingTimestamp: nint },
    ['acceptingBlockHash', 'acceptingBlueScore', 'acceptingTimestamp'],
  ),
  AddressName: object({ address: str, name: str }),
  TopAddresses: object({ timestamp: int, ranking: list(object({ rank: int, address: str, amount: int })) }),
  DistributionTiers: object({ timestamp: int, tiers: list(object({ tier: int, count: int, amount: int })) }),
  TxSearch: {
    type: 'object',
    properties: {
      transactionIds: { ...list(str), nullable: true, maxItems: 1000 },
      acceptingBlueScores: { ...object({ gte: int, lt: int }), nullable: true },
    },
  },
  SubmitTxModel: object(
    {
      version: int,
      inputs: list(
        object(
          { previousOutpoint: object({ transactionId: str, index: int }), signatureScript: str, sequence: int, sigOpCount: int, computeBudget: int },
          ['computeBudget'],
        ),
      ),
      outputs: list(
        object(
          { amount: int, scriptPublicKey: object({ version: int, scriptPublicKey: str }), covenant: { ...object({ authorizingInput: int, covenantId: str }), nullable: true } },
          ['covenant'],
        ),
      ),
      lockTime: nint,
      subnetworkId: nstr,
    },
    ['lockTime', 'subnetworkId'],
  ),
  SubmitTransactionRequest: object({ transaction: ref('SubmitTxModel'), allowOrphan: bool }, ['allowOrphan']),
  SubmitTransactionResponse: object({ transactionId: nstr, error: nstr }, ['transactionId', 'error']),
  TxMass: object({ mass: int, storage_mass: int, compute_mass: int, transient_mass: int }),
  VscpResponse: object({
    removedChainBlockHashes: list(str),
    addedChainBlockHashes: list(str),
    acceptedTransactionIds: list(object({ acceptingBlockHash: str, acceptedTransactionIds: list(str) })),
  }),
  AddressActive: object({ address: str, active: bool, lastTxBlockTime: nint }, ['lastTxBlockTime']),
  AddressesActiveCount: object({ timestamp: int, dateTime: str, count: int }),
  AddressBalanceHistory: object({ timestamp: int, amount: int }),
  AddressList: object({ addresses: { ...list(str), maxItems: 1000 } }),
  HTTPError: object({ detail: str }),
  HTTPValidationError: object({ detail: list(object({ loc: list({ oneOf: [str, int] }), msg: str, type: str, ctx: { type: 'object' } }, ['ctx'])) }),
};

interface Query {
  name: string;
  schema: Schema;
}

const q = (name: string, schema: Schema): Query => ({ name, schema });
const flag = (name: string) => q(name, bool);
const RESOLVE = q('resolve_previous_outpoints', { type: 'string', enum: ['no', 'light', 'full'], default: 'no' });
const FIELDS = q('fields', { type: 'string', description: 'comma-separated top-level fields; empty keeps all' });
const ACCEPTANCE = q('acceptance', { type: 'string', enum: ['accepted', 'rejected'] });

interface Operation {
  summary: string;
  query?: Query[];
  body?: string;
  /** The 200 answer: a schema name, `[name]` for a list of it, or `text`. */
  answer: string;
}

export const OPERATIONS: Record<Exclude<KaspaRestRouteId, 'GET /kaspa-rest/openapi.json'>, Operation> = {
  'GET /kaspa-rest/info/blockdag': { summary: 'BlockDAG information', answer: 'BlockdagResponse' },
  'GET /kaspa-rest/info/network': { summary: 'Alias of /info/blockdag', answer: 'BlockdagResponse' },
  'GET /kaspa-rest/info/coinsupply': { summary: 'Circulating and maximum supply in sompi', answer: 'CoinSupplyResponse' },
  'GET /kaspa-rest/info/coinsupply/circulating': { summary: 'Circulating KAS as text', query: [flag('in_billion')], answer: 'text' },
  'GET /kaspa-rest/info/coinsupply/total': { summary: 'Circulating KAS as text', query: [flag('in_billion')], answer: 'text' },
  'GET /kaspa-rest/info/blockreward': { summary: 'Current block reward in KAS', query: [flag('stringOnly')], answer: 'BlockRewardResponse' },
  'GET /kaspa-rest/info/halving': {
    summary: 'Next reward reduction (subsidy schedule)',
    query: [q('field', { type: 'string', enum: ['nextHalvingTimestamp', 'nextHalvingDate', 'nextHalvingAmount'] })],
    answer: 'HalvingResponse',
  },
  'GET /kaspa-rest/info/fee-estimate': { summary: "The node's fee estimate (sompi per gram)", answer: 'FeeEstimateResponse' },
  'GET /kaspa-rest/info/kaspad': { summary: 'The node', answer: 'KaspadInfoResponse' },
  'GET /kaspa-rest/info/virtual-chain-blue-score': { summary: "The sink's blue score", answer: 'BlueScoreResponse' },
  'GET /kaspa-rest/info/get-vscp-from-block': {
    summary: "The node's virtual selected parent chain from startHash (getVirtualChainFromBlock); 400 when the node does not know it",
    query: [q('startHash', { type: 'string', pattern: '^[a-f0-9]{64}$' }), flag('includeAcceptedTransactionIds')],
    answer: 'VscpResponse',
  },
  'GET /kaspa-rest/info/health': { summary: 'Node and index health (503 when unsynced)', answer: 'HealthResponse' },
  'GET /kaspa-rest/info/market-data': { summary: 'KAS/USD market data from the configured source', answer: 'MarketData' },
  'GET /kaspa-rest/info/price': { summary: 'KAS/USD', query: [flag('stringOnly')], answer: 'PriceResponse' },
  'GET /kaspa-rest/info/marketcap': { summary: 'Market cap in USD', query: [flag('stringOnly')], answer: 'MarketCapResponse' },
  'GET /kaspa-rest/info/hashrate': { summary: 'Hashrate estimate in TH/s', query: [flag('stringOnly')], answer: 'HashrateResponse' },
  'GET /kaspa-rest/info/hashrate/history': {
    summary: "503 {\"detail\": \"Hashrate history is disabled\"}: kaspa-rest-server's answer without its HASHRATE_HISTORY sample table",
    query: [q('resolution', { type: 'string', enum: ['15m', '1h', '3h', '1d', '7d'] })],
    answer: '[HashrateHistoryResponse]',
  },
  'GET /kaspa-rest/info/hashrate/history/{day_or_month}': {
    summary: '503 as /info/hashrate/history (422 for a malformed day or month)',
    query: [q('resolution', { type: 'string', enum: ['15m', '1h'] })],
    answer: '[HashrateHistoryResponse]',
  },
  'GET /kaspa-rest/info/hashrate/max': {
    summary: 'Highest hashrate estimate over the indexed blocks (the hardest block), in TH/s',
    answer: 'MaxHashrateResponse',
  },
  'GET /kaspa-rest/blocks': {
    summary: "The node's block hashes from lowHash (getBlocks); with includeBlocks, the ones the index holds as BlockModel",
    query: [q('lowHash', { type: 'string', pattern: '^[a-f0-9]{64}$' }), flag('includeBlocks'), flag('includeTransactions')],
    answer: 'BlockResponse',
  },
  'GET /kaspa-rest/blocks-from-bluescore': {
    summary: 'The indexed blocks at one blue score: exactly one of blueScore, blueScoreGte (the lowest stored at or above), blueScoreLt (the highest stored below)',
    query: [q('blueScore', int), q('blueScoreGte', int), q('blueScoreLt', int), flag('includeTransactions')],
    answer: '[BlockModel]',
  },
  'GET /kaspa-rest/virtual-chain': {
    summary: 'Transactions the chain blocks with blueScoreGte ≤ blue score < blueScoreGte + limit accepted (blueScoreGte divisible by limit)',
    query: [q('blueScoreGte', int), q('limit', { type: 'integer', enum: [10, 100], default: 10 }), flag('resolveInputs'), flag('includeCoinbase')],
    answer: '[VcBlockModel]',
  },
  'GET /kaspa-rest/blocks/{blockId}': {
    summary: 'A block from the index (404 when unknown)',
    query: [flag('includeTransactions'), flag('includeColor')],
    answer: 'BlockModel',
  },
  'GET /kaspa-rest/transactions/{transactionId}': {
    summary: 'A transaction from the index',
    query: [q('blockHash', str), flag('inputs'), flag('outputs'), RESOLVE],
    answer: 'TxModel',
  },
  'POST /kaspa-rest/transactions/search': {
    summary: 'Transactions by id or accepting blue score, newest first',
    query: [FIELDS, RESOLVE, ACCEPTANCE],
    body: 'TxSearch',
    answer: '[TxModel]',
  },
  'POST /kaspa-rest/transactions/acceptance': { summary: 'Acceptance of transactions', body: 'TxSearch', answer: '[TxAcceptanceResponse]' },
  'POST /kaspa-rest/transactions': {
    summary: 'Submit a transaction to the node (replaceByFee: replace one in its mempool); refused: 400 {"error": reason}',
    query: [flag('replaceByFee')],
    body: 'SubmitTransactionRequest',
    answer: 'SubmitTransactionResponse',
  },
  'POST /kaspa-rest/transactions/mass': {
    summary: 'Compute, storage (KIP-9, from the indexed spent outputs; 404 when one is not indexed) and transient mass of a transaction',
    body: 'SubmitTxModel',
    answer: 'TxMass',
  },
  'GET /kaspa-rest/transactions/count/': { summary: 'Accepted transactions in the index', answer: 'TransactionCountResponse' },
  'GET /kaspa-rest/transactions/count/{day_or_month}': {
    summary: 'Accepted transactions per hour of a UTC day (YYYY-MM-DD) or month (YYYY-MM)',
    answer: '[TransactionCountResponse]',
  },
  'GET /kaspa-rest/addresses/{kaspaAddress}/balance': { summary: "An address's balance (the node's UTXO index)", answer: 'BalanceResponse' },
  'GET /kaspa-rest/addresses/{kaspaAddress}/utxos': { summary: "An address's UTXOs", answer: '[UtxoResponse]' },
  'GET /kaspa-rest/addresses/{kaspaAddress}/utxos/count': { summary: "How many UTXOs an address holds", answer: 'UtxoCountResponse' },
  'GET /kaspa-rest/addresses/{kaspaAddress}/transactions-count': { summary: "How many transactions an address's history holds", answer: 'TransactionCount' },
  'GET /kaspa-rest/addresses/{kaspaAddress}/full-transactions-page': {
    summary: 'A page of an address history by block time (X-Next-Page-Before / X-Next-Page-After, X-Page-Count)',
    query: [q('limit', { type: 'integer', minimum: 1, maximum: 500, default: 50 }), q('before', { type: 'integer', minimum: 0 }), q('after', { type: 'integer', minimum: 0 }), FIELDS, RESOLVE, ACCEPTANCE],
    answer: '[TxModel]',
  },
  'GET /kaspa-rest/addresses/{kaspaAddress}/full-transactions': {
    summary: 'A page of an address history by offset (legacy)',
    query: [q('limit', { type: 'integer', minimum: 1, maximum: 500, default: 50 }), q('offset', { type: 'integer', minimum: 0 }), FIELDS, RESOLVE],
    answer: '[TxModel]',
  },
  'POST /kaspa-rest/addresses/balances': { summary: 'Balances of up to 1,000 addresses', body: 'AddressList', answer: '[BalanceResponse]' },
  'POST /kaspa-rest/addresses/utxos': { summary: 'UTXOs of up to 1,000 addresses', body: 'AddressList', answer: '[UtxoResponse]' },
  'POST /kaspa-rest/addresses/active': {
    summary: 'Whether each address has any indexed history, and its newest block time (for HD wallets)',
    body: 'AddressList',
    answer: '[AddressActive]',
  },
  'GET /kaspa-rest/addresses/active/count/': {
    summary: '503 {"detail": "Addresses active count is disabled"}: kaspa-rest-server\'s answer without its count exporter',
    answer: 'AddressesActiveCount',
  },
  'GET /kaspa-rest/addresses/active/count/{day_or_month}': { summary: '503 as /addresses/active/count/', answer: '[AddressesActiveCount]' },
  'GET /kaspa-rest/addresses/{kaspaAddress}/balance/{day_or_month}': {
    summary: '503 {"detail": "Balance history is disabled"}: kaspa-rest-server\'s answer without its ranking snapshots',
    answer: '[AddressBalanceHistory]',
  },
  'GET /kaspa-rest/addresses/{kaspaAddress}/name': { summary: "An address's label", answer: 'AddressName' },
  'GET /kaspa-rest/addresses/top': {
    summary: 'The largest balances of the accepted history',
    query: [q('before', int), q('limit', { type: 'integer', enum: [1] })],
    answer: '[TopAddresses]',
  },
  'GET /kaspa-rest/addresses/distribution': {
    summary: 'Addresses per balance tier (powers of ten of KAS)',
    query: [q('before', int), q('limit', { type: 'integer', enum: [1, 24] })],
    answer: '[DistributionTiers]',
  },
  'GET /kaspa-rest/addresses/names': { summary: 'Address labels', answer: '[AddressName]' },
  'GET /kaspa-rest/ping': { summary: 'Node and database reachable', answer: 'text' },
};

function answerSchema(answer: string): Schema {
  if (answer === 'text') return { type: 'string' };
  return answer.startsWith('[') ? list(ref(answer.slice(1, -1))) : ref(answer);
}

export function kaspaRestOpenApi(): Record<string, unknown> {
  const paths: Record<string, Record<string, unknown>> = {};
  for (const [id, operation] of Object.entries(OPERATIONS) as [KaspaRestRouteId, Operation][]) {
    const [method, path] = id.split(' ') as [string, string];
    const relative = path.slice('/kaspa-rest'.length);
    const pathParameters = [...relative.matchAll(/\{(\w+)\}/g)].map((match) => ({ name: match[1], in: 'path', required: true, schema: str }));
    const queryParameters = (operation.query ?? []).map((each) => ({ name: each.name, in: 'query', required: false, schema: each.schema }));
    const json = operation.answer === 'text' ? 'text/plain' : 'application/json';
    paths[relative] ??= {};
    paths[relative][method.toLowerCase()] = {
      summary: operation.summary,
      description: `Costs ${formatRu(KASPA_REST_ROUTE_COSTS[id])} RU.`,
      parameters: [...pathParameters, ...queryParameters],
      ...(operation.body === undefined ? {} : { requestBody: { required: true, content: { 'application/json': { schema: ref(operation.body) } } } }),
      responses: {
        200: { description: 'OK', content: { [json]: { schema: answerSchema(operation.answer) } } },
        400: { description: 'Bad request', content: { 'application/json': { schema: ref('HTTPError') } } },
        404: { description: 'Not found', content: { 'application/json': { schema: ref('HTTPError') } } },
        422: { description: 'Validation error', content: { 'application/json': { schema: ref('HTTPValidationError') } } },
        429: { description: 'Rate limit exceeded', content: { 'application/json': { schema: ref('HTTPError') } } },
      },
    };
  }
  return {
    openapi: '3.0.3',
    info: {
      title: 'dagboard: the kaspa-rest-server interface',
      version: '1',
      description:
        'The REST interface of api.kaspa.org (supertypo/kaspa-rest-server), served from dagboard’s index and node. ' +
        'Keyless by default, metered per client IP in RU; an operator may require x-api-key.',
    },
    servers: [{ url: '/kaspa-rest' }],
    paths,
    components: {
      schemas: SCHEMAS,
      securitySchemes: { apiKey: { type: 'apiKey', in: 'header', name: 'x-api-key' } },
    },
  };
}
