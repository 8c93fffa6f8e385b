/** /blocks/*, /blocks-from-bluescore and /virtual-chain, from the index (the node for colours and getBlocks). */
import { blocksAtBlueScore, chainAcceptances, nearestBlueScore, getBlock, getTransactions } from '../db';
import { bytesToHex, hexToBytes } from '../kaspa/bytes';
import { RestError } from './errors';
import { blockModel } from './format';
import type { KaspaRestData, RestRoute } from './route-types';
import { HASH_PATTERN } from './route-support';

async function blockColor(data: KaspaRestData, hash: string, isChainBlock: boolean): Promise<'blue' | 'red' | null> {
  if (isChainBlock) return 'blue';
  try {
    return (await data.rpc.call('getCurrentBlockColor', { hash })).blue ? 'blue' : 'red';
  } catch {
    return null;
  }
}

const blocks: RestRoute[] = [
  {
    id: 'GET /kaspa-rest/blocks/{blockId}',
    async handler({ data, params, parameters }) {
      const blockId = parameters.pathMatching('blockId', params.blockId ?? '', HASH_PATTERN);
      const includeTransactions = parameters.boolean('includeTransactions', true);
      const includeColor = parameters.boolean('includeColor', false);
      parameters.done();
      const block = await getBlock(data.db, hexToBytes(blockId));
      if (block === null) throw new RestError(404, 'Block not found');
      const [transactions, prefix, color] = await Promise.all([
        getTransactions(data.db, block.transactionIds, { includePayload: true }),
        data.addressPrefix(),
        includeColor ? blockColor(data, blockId, block.isChainBlock) : Promise.resolve(undefined),
      ]);
      const tipBlueScore = await data.virtualBlueScore().catch(() => block.header.blueScore);
      return {
        body: blockModel(block, transactions, { includeTransactions, color, prefix }),
        maxAge: tipBlueScore - block.header.blueScore > 1000n ? 600 : 4,
      };
    },
  },
  {
    id: 'GET /kaspa-rest/blocks',
    async handler({ data, parameters }) {
      const lowHash = parameters.string('lowHash');
      if (lowHash === undefined) parameters.fail({ loc: ['query', 'lowHash'], msg: 'field required', type: 'value_error.missing' });
      // pydantic v1's Query(regex=…) is re.match: anchored at the start only.
      else if (!/^[a-f0-9]{64}/.test(lowHash)) {
        parameters.fail({ loc: ['query', 'lowHash'], msg: 'string does not match regex "[a-f0-9]{64}"', type: 'value_error.str.regex', ctx: { pattern: '[a-f0-9]{64}' } });
      }
      const includeBlocks = parameters.boolean('includeBlocks', false);
      const includeTransactions = parameters.boolean('includeTransactions', false);
      parameters.done();
      let hashes: string[];
      try {
        hashes = (await data.rpc.call('getBlocks', { lowHash: lowHash!, includeBlocks: false, includeTransactions: false })).blockHashes;
      } catch {
        // kaspa-rest-server's answer when its node call fails.
        return { body: { blockHashes: [], blocks: [] }, maxAge: 3 };
      }
      const blocks = [];
      if (includeBlocks) {
        const prefix = await data.addressPrefix();
        for (const hash of hashes) {
          const block = await getBlock(data.db, hexToBytes(hash));
          if (block === null) continue;
          const transactions = includeTransactions ? await getTransactions(data.db, block.transactionIds, { includePayload: true }) : [];
          blocks.push(blockModel(block, transactions, { includeTransactions, color: undefined, prefix }));
        }
      }
      return { body: { blockHashes: hashes, blocks }, maxAge: 3 };
    },
  },
  {
    id: 'GET /kaspa-rest/blocks-from-bluescore',
    async handler({ data, parameters }) {
      const exact = parameters.integer('blueScore');
      const gte = parameters.integer('blueScoreGte');
      const lt = parameters.integer('blueScoreLt');
      const includeTransactions = parameters.boolean('includeTransactions', false);
      parameters.done();
      if ([exact, gte, lt].filter((bound) => bound !== undefined).length !== 1) {
        throw new RestError(400, 'Exactly one of blueScore, blueScoreGte, or blueScoreLt must be provided');
      }
      const current = await data.virtualBlueScore();
      if ((exact !== undefined && (exact < 0n || exact > current)) || (gte !== undefined && gte > current) || (lt !== undefined && lt < 0n)) {
        return { body: [] };
      }
      const blueScore = exact ?? (gte !== undefined ? await nearestBlueScore(data.db, { gte }) : await nearestBlueScore(data.db, { lt: lt! }));
      if (blueScore === null) return { body: [] };
      const [hashes, prefix] = await Promise.all([blocksAtBlueScore(data.db, blueScore), data.addressPrefix()]);
      const body = [];
      for (const hash of hashes) {
        const block = await getBlock(data.db, hash);
        if (block === null) continue;
        const transactions = includeTransactions ? await getTransactions(data.db, block.transactionIds, { includePayload: true }) : [];
        body.push(blockModel(block, transactions, { includeTransactions, color: undefined, prefix }));
      }
      return { body, maxAge: current - blueScore > 1000n ? 600 : 4 };
    },
  },
];

const virtualChain: RestRoute = {
  id: 'GET /kaspa-rest/virtual-chain',
  strictQuery: ['blueScoreGte', 'limit', 'resolveInputs', 'includeCoinbase'],
  async handler({ data, parameters }) {
    const gte = parameters.integer('blueScoreGte', { ge: 0 });
    if (gte === undefined && parameters.string('blueScoreGte') === undefined) {
      parameters.fail({ loc: ['query', 'blueScoreGte'], msg: 'field required', type: 'value_error.missing' });
    }
    const limit = parameters.integer('limit') ?? 10n;
    const resolveInputs = parameters.boolean('resolveInputs', false);
    const includeCoinbase = parameters.boolean('includeCoinbase', true);
    parameters.done();
    if (limit !== 10n && limit !== 100n) throw new RestError(400, "'limit' must be in [10, 100]");
    if (gte! % limit !== 0n) throw new RestError(400, `'blueScoreGte' must be divisible by limit (${limit})`);
    const current = await data.virtualBlueScore();
    const lt = gte! + limit;
    const maxAge = current - lt > 1000n ? 600 : 4;
    if (current > 0n && current < gte!) return { body: [], maxAge };
    const blocks = await chainAcceptances(data.db, gte!, lt);
    const transactions = new Map(
      (await getTransactions(data.db, blocks.flatMap((block) => block.accepted), { includePayload: false })).map((transaction) => [
        bytesToHex(transaction.transactionId),
        transaction,
      ]),
    );
    const body = blocks.flatMap((block) => {
      const accepted = block.accepted.flatMap((id) => {
        const transaction = transactions.get(bytesToHex(id));
        if (transaction === undefined || (!includeCoinbase && transaction.inputs.length === 0)) return [];
        const inputs = transaction.inputs.map((input) => {
          const previous = resolveInputs ? input.previousOutput : null;
          return {
            previous_outpoint_hash: bytesToHex(input.previousOutpoint.transactionId),
            previous_outpoint_index: input.previousOutpoint.index,
            signature_script: bytesToHex(input.signatureScript),
            ...(previous === null
              ? {}
              : { previous_outpoint_script: bytesToHex(previous.scriptPublicKey.script), previous_outpoint_address: previous.address, previous_outpoint_amount: previous.amount }),
          };
        });
        const outputs = transaction.outputs.map((output) => ({
          script_public_key: bytesToHex(output.scriptPublicKey.script),
          script_public_key_address: output.address,
          amount: output.amount,
        }));
        // response_model_exclude_none: a coinbase has no inputs key at all.
        return [{ transaction_id: bytesToHex(transaction.transactionId), is_accepted: true, ...(inputs.length === 0 ? {} : { inputs }), outputs }];
      });
      if (accepted.length === 0) return [];
      return [{ hash: bytesToHex(block.hash), blue_score: Number(block.blueScore), daa_score: Number(block.daaScore), timestamp: Number(block.timestamp), transactions: accepted }];
    });
    return { body, maxAge };
  },
};


export const BLOCK_ROUTES: readonly RestRoute[] = [...blocks, virtualChain];
