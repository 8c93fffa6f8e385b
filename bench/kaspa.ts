/**
 * Throughput of the Kaspa primitives the explorer and devnet lean on. Run with `npx tsx bench/kaspa.ts`; each line is
 * `name: N ops/s`, measured over a fixed ~2 s window after a short warm-up, so the whole run stops by itself.
 */
import { covenantId } from '../lib/kaspa/covenant';
import { headerHash } from '../lib/kaspa/header';
import { LanesTree } from '../lib/kaspa/lanes-tree';
import { computeSeqCommitBlock } from '../lib/kaspa/seq-commit-block';
import { MuHash } from '../lib/kaspa/muhash';
import { PowState } from '../lib/kaspa/pow';
import { SIG_HASH_ALL } from '../lib/kaspa/sighash';
import { p2pkSignatureScript, schnorrPublicKey, signSchnorr, verifySchnorr } from '../lib/kaspa/signing';
import { transactionId } from '../lib/kaspa/transaction';
import { SUBNETWORK_ID_NATIVE, type Header, type Transaction, type UtxoEntry } from '../lib/kaspa/types';

const MEASURE_MS = 2000;
const WARMUP_MS = 200;
const BATCH = 16;

function runFor(milliseconds: number, operation: (iteration: number) => void): number {
  const start = performance.now();
  let iterations = 0;
  while (performance.now() - start < milliseconds) {
    for (let i = 0; i < BATCH; i++) operation(iterations++);
  }
  return iterations / ((performance.now() - start) / 1000);
}

function measure(name: string, operation: (iteration: number) => void): void {
  runFor(WARMUP_MS, operation);
  const opsPerSecond = runFor(MEASURE_MS, operation);
  console.log(`${name}: ${Math.round(opsPerSecond)} ops/s`);
}

const hashOf = (seed: number) => new Uint8Array(32).map((_, i) => (seed * 31 + i * 7) & 0xff);
const p2pkScript = (publicKey: Uint8Array) => Uint8Array.of(0x20, ...publicKey, 0xac);

const header: Header = {
  version: 1,
  parentsByLevel: [[hashOf(1), hashOf(2), hashOf(3)], [hashOf(4)]],
  hashMerkleRoot: hashOf(5),
  acceptedIdMerkleRoot: hashOf(6),
  utxoCommitment: hashOf(7),
  timestamp: 1_735_000_000_000n,
  bits: 0x1d0fffff,
  nonce: 0n,
  daaScore: 110_000_000n,
  blueScore: 100_000_000n,
  blueWork: 0x1234_5678_9abc_def0_1234_5678n,
  pruningPoint: hashOf(8),
};

const privateKey = hashOf(9);
const publicKey = schnorrPublicKey(privateKey);
const message = hashOf(10);
const signature = signSchnorr(message, privateKey);
const signatureScript = p2pkSignatureScript(signature, SIG_HASH_ALL);

const transaction: Transaction = {
  version: 0,
  inputs: [0, 1].map((index) => ({
    previousOutpoint: { transactionId: hashOf(20 + index), index },
    signatureScript,
    sequence: 0n,
    sigOpCount: 1,
  })),
  outputs: [150_000_000n, 849_990_000n].map((value) => ({
    value,
    scriptPublicKey: { version: 0, script: p2pkScript(publicKey) },
  })),
  lockTime: 0n,
  subnetworkId: SUBNETWORK_ID_NATIVE,
  gas: 0n,
  payload: new Uint8Array(0),
  storageMass: 0n,
};

const powState = new PowState({ prePowHash: hashOf(11), timestamp: header.timestamp, bits: header.bits });
const utxoEntry: UtxoEntry = {
  amount: 150_000_000n,
  scriptPublicKey: { version: 0, script: p2pkScript(publicKey) },
  blockDaaScore: 110_000_000n,
  isCoinbase: false,
};
const muHash = new MuHash();
const outpointId = hashOf(12);

measure('header hash', (i) => headerHash({ ...header, nonce: BigInt(i) }));
measure('tx id (2-in/2-out signed)', () => transactionId(transaction));
measure('kHeavyHash', (i) => powState.checkPowWords(i, 0));
measure('schnorr verify', () => {
  if (!verifySchnorr(signature, message, publicKey)) throw new Error('signature did not verify');
});
measure('muhash add utxo', (i) => muHash.addUtxo({ transactionId: outpointId, index: i }, utxoEntry));
measure('muhash remove + finalize', (i) => muHash.removeElement(hashOf(i)).finalize());

const transactionV1: Transaction = {
  ...transaction,
  version: 1,
  inputs: transaction.inputs.map((input) => ({ ...input, sigOpCount: 0, computeBudget: 10 })),
  outputs: transaction.outputs.map((output, index) =>
    index === 0 ? { ...output, covenant: { authorizingInput: 0, covenantId: hashOf(13) } } : output,
  ),
};
const laneKeyOf = (seed: number) => hashOf(1000 + seed);
const laneEntry = (seed: number) => ({ tip: hashOf(2000 + seed), blueScore: BigInt(seed) });
const activeLanes = LanesTree.fromRecords(Array.from({ length: 200 }, (_, i) => ({ laneKey: laneKeyOf(i), entry: laneEntry(i) })));
const userLane = (seed: number) => Uint8Array.of(0, 0, (seed >> 8) & 0xff, seed & 0xff, ...new Uint8Array(16));

measure('v1 tx id (2-in/2-out, one covenant output)', () => transactionId(transactionV1));
measure('covenant id (1 output)', () => covenantId(transactionV1.inputs[0]!.previousOutpoint, [{ index: 0, output: transactionV1.outputs[0]! }]));
measure('lanes tree: update 10 of 200 lanes', (i) => {
  let lanes = activeLanes;
  for (let k = 0; k < 10; k++) lanes = lanes.set(laneKeyOf((i * 10 + k) % 200), laneEntry(300 + i));
  return lanes.root;
});
measure('seq commit of a block (12 accepted txs on 4 lanes, 3 merged blocks, 200 active lanes)', (i) =>
  computeSeqCommitBlock({
    parentSeqCommit: hashOf(14),
    lanes: activeLanes,
    context: { timestamp: header.timestamp, daaScore: 1000n + BigInt(i), blueScore: 300n },
    acceptedTransactions: Array.from({ length: 12 }, (_, k) => ({ id: hashOf(3000 + k), version: 1, subnetworkId: userLane(k % 4) })),
    mergeset: [0, 1, 2].map((k) => ({ hash: hashOf(4000 + k), blueWork: 1_000_000n + BigInt(k), coinbasePayload: hashOf(5000 + k) })),
    inactivityShortcut: hashOf(15),
    finalityDepth: 432_000n,
  }).seqCommit,
);
