/**
 * The Toccata known-answer vectors (../shared/research/vectors/toccata-vectors.json) and the table of which test file
 * consumes which entries. An entry is an object of the file that names its source test or is marked derived (plus each
 * block of the derived chain); lib/kaspa/toccata-vectors.test.ts fails while any entry has no consumer.
 */
import { hexToBytes } from '../bytes';
import type { UtxoEntry } from '../types';
import type { HeaderVector } from './headers';
import type { UtxoEntryVector } from './signing-fixtures';
import { readVectors, type TransactionVector } from './vectors';

interface Sourced {
  test?: string;
  derived?: boolean;
}

export interface ToccataUtxoEntryVector extends Omit<UtxoEntryVector, 'blockDaaScore' | 'isCoinbase'> {
  blockDaaScore?: string;
  isCoinbase?: boolean;
  covenantId: string | null;
}

export interface DerivedValue {
  value: string;
  derived: true;
}

export interface SighashModificationVector {
  kind: 'SigOpCount' | 'ComputeBudget';
  index: number;
}

export interface GenesisIdVector {
  authorizingInput: number;
  outputs: number[];
  covenantId: string;
}

export interface LaneVector {
  laneId: string;
  tip: string;
  blueScore: number;
}

export interface AcceptedTxVector {
  id: string;
  version: number;
  subnetworkId: string;
}

export interface MergedBlockVector {
  hash: string;
  blueWork: string;
  coinbasePayload: string;
}

export interface ToccataVectors {
  keyedHashersBlake3: {
    inputs: string[];
    vectors: ({ name: string; keyHex: string; expectedCumulative: string[] } & Sourced)[];
  };
  transactionsV1: {
    vectors: ({
      name: string;
      tx: TransactionVector;
      expectedId: string;
      expectedHash?: string;
      derivedHash?: DerivedValue;
      derivedRestDigest?: DerivedValue & { payloadDigest: string };
    } & Sourced)[];
  };
  digests: { vectors: ({ payload: string; expected: string } & Sourced)[] };
  sighashV1: {
    baseTransactions: Record<string, { tx: TransactionVector; utxoEntries: ToccataUtxoEntryVector[] } & Sourced>;
    vectors: ({
      name: string;
      base: string;
      hashType: number;
      inputIndex: number;
      modification: SighashModificationVector;
      expectedSchnorrSighash: string;
    } & Sourced)[];
    derivedVectors: ({
      base: string;
      hashType: number;
      inputIndex: number;
      ecdsa?: boolean;
      expectedSchnorrSighash?: string;
      expectedEcdsaSighash?: string;
    } & Sourced)[];
  };
  headerV2: {
    blueWorkEncoding: ({ blueWork: string; preimage: string } & Sourced)[];
    derivedVectors: ({ name: string; header: HeaderVector; expectedHeaderHash: string } & Sourced)[];
  };
  covenants: {
    contextCases: ({
      name: string;
      tx: TransactionVector;
      inputCovenantIds: (string | null)[];
      expected: { valid: true; continuations: number[]; genesisGroups: [number, number[]][] } | { valid: false; error: string };
      genesisCovenantIds?: (GenesisIdVector & Sourced)[];
    } & Sourced)[];
    populateGenesis: {
      success: { tx: TransactionVector; groups: (GenesisIdVector & Sourced)[]; unboundOutputs: number[] } & Sourced;
      errors: ({ tx: TransactionVector; groups: { authorizingInput: number; outputs: number[] }[]; expectedError: string } & Sourced)[];
    };
    derivedIdExample: {
      outpoint: { txid: string; index: number };
      authOutputs: { index: number; output: { value: string; spkVersion: number; script: string } }[];
      preimage: string;
      expectedCovenantId: string;
    } & Sourced;
  };
  txRules: {
    subnetworkCases: ({ subnetworkId: string; version: number; allowed: boolean } & Sourced)[];
    gasCases: ({ subnetworkId: string; version: number; gasAllowed: boolean } & Sourced)[];
    isolationCases: ({ name: string; tx: TransactionVector; expectedError: string | null } & Sourced)[];
  };
  mass: {
    pluralityCases: ({ scriptLen: number; covenant: boolean; expected: number } & Sourced)[];
    computeBudgetCovering: ({ scriptUnits: string; expectedBudget: string | null } & Sourced)[];
    derivedExamples: ({
      name: string;
      tx: TransactionVector;
      utxoEntries: ToccataUtxoEntryVector[];
      estimatedSerializedSize: number;
      computeMass: string;
      transientMass: string;
      storageMass: string;
      allowedScriptUnitsInput0: string;
    } & Sourced)[];
  };
  seqCommit: {
    goldens: ({ fn: string; input: Record<string, string | number>; expected: string } & Sourced)[];
    smtRoots: {
      vectors: ({
        name: string;
        leaves: { key: string; laneId?: string; laneTip: string; blueScore: number }[];
        expectedRoot: string;
      } & Sourced)[];
      derivedEmptyRoot: DerivedValue;
    };
    exampleBlock: {
      input: {
        parentSeqCommit: string;
        activeLanesBefore: LaneVector[];
        context: { timestamp: number; daaScore: number; blueScore: number };
        acceptedTxs: AcceptedTxVector[];
        mergeset: MergedBlockVector[];
        inactivityShortcut: string;
        finalityDepth: string;
      };
      expected: {
        contextHash: string;
        laneTips: { laneId: string; isNew: boolean; activityDigest: string; tip: string }[];
        lanesRoot: string;
        payloadRoot: string;
        payloadAndContextDigest: string;
        activityRoot: string;
        stateRoot: string;
        seqCommit: string;
      };
    } & Sourced;
    derivedChain: {
      finalityDepth: string;
      genesis: { hash: string; blueScore: string; timestamp: string; acceptedIdMerkleRoot: string; version: number };
      blocks: {
        hash: string;
        selectedParent: string;
        blueScore: string;
        daaScore: string;
        parentTimestamp: string;
        acceptedTxs: AcceptedTxVector[];
        mergeset: MergedBlockVector[];
        expected: {
          inactivityShortcut: string;
          touched: { laneId: string; isNew: boolean }[];
          expired: string[];
          lanesRoot: string;
          seqCommit: string;
        };
      }[];
    } & Sourced;
  };
}

export const TOCCATA_VECTORS_FILE = 'toccata-vectors.json';

export const toccata = readVectors<ToccataVectors>(TOCCATA_VECTORS_FILE);

/**
 * Which test file consumes the entries whose path (keys joined by '.', array positions as '#') matches each pattern.
 * Every consuming file iterates the whole list it names, so a new element of a listed array is tested automatically.
 */
export const TOCCATA_ENTRY_CONSUMERS: readonly { pattern: string; file: string }[] = [
  { pattern: 'keyedHashersBlake3.vectors.#', file: 'lib/kaspa/hashing.test.ts' },
  { pattern: 'transactionsV1.vectors.#', file: 'lib/kaspa/transaction.test.ts' },
  { pattern: 'transactionsV1.vectors.#.derivedHash', file: 'lib/kaspa/transaction.test.ts' },
  { pattern: 'transactionsV1.vectors.#.derivedRestDigest', file: 'lib/kaspa/transaction.test.ts' },
  { pattern: 'digests.vectors.#', file: 'lib/kaspa/transaction.test.ts' },
  { pattern: 'sighashV1.vectors.#', file: 'lib/kaspa/sighash.test.ts' },
  { pattern: 'sighashV1.derivedVectors.#', file: 'lib/kaspa/sighash.test.ts' },
  { pattern: 'sighashV1.baseTransactions.native_v1_covenant', file: 'lib/kaspa/sighash.test.ts' },
  { pattern: 'headerV2.blueWorkEncoding.#', file: 'lib/kaspa/header.test.ts' },
  { pattern: 'headerV2.derivedVectors.#', file: 'lib/kaspa/header.test.ts' },
  { pattern: 'covenants.contextCases.#', file: 'lib/kaspa/covenant.test.ts' },
  { pattern: 'covenants.contextCases.#.genesisCovenantIds.#', file: 'lib/kaspa/covenant.test.ts' },
  { pattern: 'covenants.populateGenesis.success', file: 'lib/kaspa/covenant.test.ts' },
  { pattern: 'covenants.populateGenesis.success.groups.#', file: 'lib/kaspa/covenant.test.ts' },
  { pattern: 'covenants.populateGenesis.errors.#', file: 'lib/kaspa/covenant.test.ts' },
  { pattern: 'covenants.derivedIdExample', file: 'lib/kaspa/covenant.test.ts' },
  { pattern: 'txRules.subnetworkCases.#', file: 'lib/kaspa/subnetwork.test.ts' },
  { pattern: 'txRules.gasCases.#', file: 'lib/kaspa/subnetwork.test.ts' },
  { pattern: 'txRules.isolationCases.#', file: 'lib/devnet/consensus/transaction-validator.test.ts' },
  { pattern: 'mass.pluralityCases.#', file: 'lib/kaspa/mass.test.ts' },
  { pattern: 'mass.computeBudgetCovering.#', file: 'lib/kaspa/mass.test.ts' },
  { pattern: 'mass.derivedExamples.#', file: 'lib/kaspa/mass.test.ts' },
  { pattern: 'seqCommit.goldens.#', file: 'lib/kaspa/seq-commit.test.ts' },
  { pattern: 'seqCommit.smtRoots.vectors.#', file: 'lib/kaspa/lanes-tree.test.ts' },
  { pattern: 'seqCommit.smtRoots.derivedEmptyRoot', file: 'lib/kaspa/lanes-tree.test.ts' },
  { pattern: 'seqCommit.exampleBlock', file: 'lib/kaspa/seq-commit-block.test.ts' },
  { pattern: 'seqCommit.derivedChain', file: 'lib/kaspa/seq-commit-block.test.ts' },
  { pattern: 'seqCommit.derivedChain.blocks.#', file: 'lib/kaspa/seq-commit-block.test.ts' },
];

function isEntry(path: readonly string[], value: Record<string, unknown>): boolean {
  if ('test' in value || 'derived' in value || 'basedOn' in value) return true;
  return path.length === 4 && path.slice(0, 3).join('.') === 'seqCommit.derivedChain.blocks';
}

/** Every entry of the file as a pattern-style path (array positions written as '#', so entries of one list share it). */
export function toccataEntryPaths(root: unknown = toccata): string[] {
  const paths: string[] = [];
  const walk = (value: unknown, path: string[]) => {
    if (Array.isArray(value)) {
      value.forEach((item) => walk(item, [...path, '#']));
    } else if (value !== null && typeof value === 'object') {
      const record = value as Record<string, unknown>;
      if (path.length > 0 && isEntry(path, record)) paths.push(path.join('.'));
      for (const [key, child] of Object.entries(record)) walk(child, [...path, key]);
    }
  };
  walk(root, []);
  return paths;
}

export function utxoEntryFromToccataVector(vector: ToccataUtxoEntryVector): UtxoEntry {
  return {
    amount: BigInt(vector.amount),
    scriptPublicKey: { version: vector.scriptPublicKey.version, script: hexToBytes(vector.scriptPublicKey.script) },
    blockDaaScore: BigInt(vector.blockDaaScore ?? 0),
    isCoinbase: vector.isCoinbase ?? false,
    covenantId: vector.covenantId === null ? null : hexToBytes(vector.covenantId),
  };
}
