/**
 * The kaspa-rest-server routes that ask the node, not the index, or work on a transaction a client built:
 * submission (`POST /transactions`, with replaceByFee), the virtual selected parent chain from a block, and mass.
 * Where the node refuses, the answer is kaspa-rest-server's: `{"error": reason}` with 400 for a submission, and here
 * `{"detail": reason}` with 400 for a chain query from a block the node does not know (kaspa-rest-server lets that
 * escape as a 500, which dagboard never answers for bad input).
 */
import { getTransactions, submitThrough } from '../db';
import { bytesToHex, hexToBytes } from '../kaspa/bytes';
import { transactionMass } from '../kaspa/mass';
import type { UtxoEntry } from '../kaspa/types';
import { RpcRejectedError } from '../rpc/errors';
import { RestError } from './errors';
import { bodyObject, HASH_PATTERN } from './route-support';
import type { RestRoute } from './route-types';
import { readSubmitTx, submitTxToRpc, submitTxToTransaction } from './submit-model';

const COINBASE_SUBNETWORK = '0100000000000000000000000000000000000000';

/** The node's answer, or the reason it refused; other failures (unreachable, timeout) propagate as 5xx. */
async function nodeAnswer<T>(call: Promise<T>): Promise<{ value: T } | { rejected: string }> {
  try {
    return { value: await call };
  } catch (error) {
    if (error instanceof RpcRejectedError) return { rejected: error.message };
    throw error;
  }
}

export const NODE_ROUTES: RestRoute[] = [
  {
    id: 'POST /kaspa-rest/transactions',
    strictQuery: ['replaceByFee'],
    async handler({ data, parameters, body }) {
      const replaceByFee = parameters.boolean('replaceByFee', false);
      parameters.done();
      const request = bodyObject(body);
      const transaction = submitTxToRpc(readSubmitTx(request.transaction, ['body', 'transaction']));
      const allowOrphan = request.allowOrphan === true || request.allowOrphan === 'true';
      const submit = () =>
        replaceByFee
          ? data.rpc.call('submitTransactionReplacement', { transaction })
          : data.rpc.call('submitTransaction', { transaction, allowOrphan });
      const submitted = await nodeAnswer(allowOrphan ? submit() : submitThrough(data.announceSubmission, transaction, submit));
      if ('rejected' in submitted) return { status: 400, body: { error: submitted.rejected }, maxAge: 0 };
      return { body: { transactionId: submitted.value.transactionId }, maxAge: 0 };
    },
  },
  {
    id: 'POST /kaspa-rest/transactions/mass',
    strictQuery: [],
    async handler({ data, body }) {
      const model = readSubmitTx(body, ['body']);
      if (model.subnetworkId === COINBASE_SUBNETWORK) return { body: { mass: 0, storage_mass: 0, compute_mass: 0, transient_mass: 0 } };
      const previousIds = [...new Set(model.inputs.map((input) => input.previousOutpoint.transactionId))];
      const previous = new Map(
        (await getTransactions(data.db, previousIds.map(hexToBytes), { includePayload: false })).map((transaction) => [
          bytesToHex(transaction.transactionId),
          transaction,
        ]),
      );
      const entries: UtxoEntry[] = [];
      for (const input of model.inputs) {
        const output = previous.get(input.previousOutpoint.transactionId)?.outputs[input.previousOutpoint.index];
        if (output === undefined) throw new RestError(404, 'Previous outpoint(s) not found in database.');
        entries.push({ amount: output.amount, scriptPublicKey: output.scriptPublicKey, blockDaaScore: 0n, isCoinbase: false, covenantId: output.covenantId });
      }
      const masses = transactionMass(submitTxToTransaction(model), entries);
      if (masses.storage === null) throw new RestError(400, 'Storage mass overflows: the node refuses this transaction as too heavy');
      const mass = masses.storage > masses.compute ? masses.storage : masses.compute;
      return {
        body: { mass: Number(mass), storage_mass: Number(masses.storage), compute_mass: Number(masses.compute), transient_mass: Number(masses.transient) },
      };
    },
  },
  {
    id: 'GET /kaspa-rest/info/get-vscp-from-block',
    strictQuery: ['startHash', 'includeAcceptedTransactionIds'],
    async handler({ data, parameters }) {
      const startHash = parameters.string('startHash');
      if (startHash === undefined) parameters.fail({ loc: ['query', 'startHash'], msg: 'field required', type: 'value_error.missing' });
      else if (!new RegExp(HASH_PATTERN).test(startHash)) {
        parameters.fail({ loc: ['query', 'startHash'], msg: `string does not match regex "${HASH_PATTERN}"`, type: 'value_error.str.regex', ctx: { pattern: HASH_PATTERN } });
      }
      const includeAcceptedTransactionIds = parameters.boolean('includeAcceptedTransactionIds', true);
      parameters.done();
      const chain = await nodeAnswer(data.rpc.call('getVirtualChainFromBlock', { startHash: startHash!, includeAcceptedTransactionIds }));
      if ('rejected' in chain) throw new RestError(400, chain.rejected);
      const { removedChainBlockHashes, addedChainBlockHashes, acceptedTransactionIds } = chain.value;
      return { body: { removedChainBlockHashes, addedChainBlockHashes, acceptedTransactionIds }, maxAge: 1 };
    },
  },
];
