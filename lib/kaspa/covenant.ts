/**
 * KIP-17 covenants: the covenant id (consensus/core/src/hashing/covenant_id.rs), the per-transaction covenants context
 * that validates bindings and answers the covenant opcodes' queries (crypto/txscript/src/covenants.rs
 * `CovenantsContext::from_tx`, read by OpAuthOutputCount/Idx and OpCovInput/OutputCount/Idx in
 * crypto/txscript/src/opcodes/mod.rs), and the wallet builder that fills genesis bindings
 * (consensus/core/src/tx.rs `populate_genesis_covenants`).
 *
 * An output binding `{ authorizingInput a, covenantId X }` is a continuation when the entry spent by input a carries X;
 * otherwise it belongs to the genesis group (a, X), whose id must be `covenantId(outpoint of input a, group outputs)`.
 */
import { ByteWriter, bytesToHex } from './bytes';
import { blake2bKeyed } from './hashing';
import type { Covenant, Hash, Outpoint, Transaction, TransactionOutput, UtxoEntry } from './types';

export interface AuthorizedOutput {
  /** The output's index in its transaction. */
  index: number;
  output: Pick<TransactionOutput, 'value' | 'scriptPublicKey'>;
}

/**
 * txid ‖ u32le(index) of the genesis outpoint ‖ u64le(#outputs) ‖ per output, in ascending index order: u32le(index) ‖
 * u64le(value) ‖ u16le(script version) ‖ u64le(script length) ‖ script. The binding itself is not hashed.
 */
export function covenantIdPreimage(genesisOutpoint: Outpoint, authorizedOutputs: readonly AuthorizedOutput[]): Uint8Array {
  const writer = new ByteWriter()
    .bytes(genesisOutpoint.transactionId)
    .u32(genesisOutpoint.index)
    .u64(authorizedOutputs.length);
  for (const { index, output } of authorizedOutputs) {
    writer.u32(index).u64(output.value).u16(output.scriptPublicKey.version).varBytes(output.scriptPublicKey.script);
  }
  return writer.finish();
}

/** BLAKE2b-256 keyed "CovenantID" over `covenantIdPreimage`. */
export function covenantId(genesisOutpoint: Outpoint, authorizedOutputs: readonly AuthorizedOutput[]): Hash {
  return blake2bKeyed('CovenantID', covenantIdPreimage(genesisOutpoint, authorizedOutputs));
}

export type CovenantErrorDetail =
  | { kind: 'WrongGenesisCovenantId'; inputIndex: number; covenantId: Hash }
  | { kind: 'AuthInputOutOfBounds'; outputIndex: number; authorizingInput: number }
  | { kind: 'InvalidCovInIndex'; covenantId: Hash; k: number }
  | { kind: 'InvalidCovOutIndex'; covenantId: Hash; k: number }
  | { kind: 'InvalidAuthCovOutIndex'; k: number; inputIndex: number; authorizedCount: number };

function covenantErrorMessage(detail: CovenantErrorDetail): string {
  switch (detail.kind) {
    case 'WrongGenesisCovenantId':
      return `input #${detail.inputIndex} and outputs with covenant id ${bytesToHex(detail.covenantId)} do not correspond to the expected genesis hashing`;
    case 'AuthInputOutOfBounds':
      return `output #${detail.outputIndex} covenant authorizing input index ${detail.authorizingInput} is out of bounds`;
    case 'InvalidCovInIndex':
      return `covenant id ${bytesToHex(detail.covenantId)} input ${detail.k} is out of bounds`;
    case 'InvalidCovOutIndex':
      return `covenant id ${bytesToHex(detail.covenantId)} output ${detail.k} is out of bounds`;
    case 'InvalidAuthCovOutIndex':
      return `${detail.k} is not a valid covenant output index for input ${detail.inputIndex} with ${detail.authorizedCount} authorized outputs`;
  }
}

/** An error carrying its structured detail, whose `kind` names the source's error variant. */
abstract class DetailedError<Detail extends { kind: string }> extends Error {
  constructor(
    readonly detail: Detail,
    message: string,
  ) {
    super(message);
  }

  get kind(): Detail['kind'] {
    return this.detail.kind;
  }
}

/** `CovenantsError` of crypto/txscript/errors; `message` is its Display text (consensus prefixes "covenants error: "). */
export class CovenantError extends DetailedError<CovenantErrorDetail> {
  override name = 'CovenantError';

  constructor(detail: CovenantErrorDetail) {
    super(detail, covenantErrorMessage(detail));
  }
}

/** A genesis group found by the context check: the outputs bound to `covenantId` under `authorizingInput`, ascending. */
export interface ValidatedGenesisGroup {
  authorizingInput: number;
  covenantId: Hash;
  outputs: number[];
}

interface CovenantMembers {
  inputs: number[];
  outputs: number[];
}

/**
 * The covenant relations of one transaction. Continuation outputs populate the per-input and per-covenant contexts the
 * opcodes read; genesis outputs are validated but populate neither.
 */
export class CovenantsContext {
  private constructor(
    private readonly authorized: ReadonlyMap<number, readonly number[]>,
    private readonly members: ReadonlyMap<string, CovenantMembers>,
    /** Outputs continuing the covenant of their authorizing input, ascending. */
    readonly continuationOutputs: readonly number[],
    /** Genesis groups in order of their first output. */
    readonly genesisGroups: readonly ValidatedGenesisGroup[],
  ) {}

  /** The context of a transaction validated before Toccata (rusty-kaspa's EMPTY_COV_CONTEXT). */
  static readonly EMPTY = new CovenantsContext(new Map(), new Map(), [], []);

  /**
   * Builds and validates the context of `tx` spending `spentEntries` (`spentEntries[i]` for input i): every binding must
   * name an existing input (AuthInputOutOfBounds) and every genesis group must carry its computed id
   * (WrongGenesisCovenantId). Throws CovenantError.
   */
  static fromTransaction(tx: Transaction, spentEntries: readonly Pick<UtxoEntry, 'covenantId'>[]): CovenantsContext {
    const authorized = new Map<number, number[]>();
    const members = new Map<string, CovenantMembers>();
    const continuations: number[] = [];
    const genesis = new Map<string, ValidatedGenesisGroup>();

    tx.inputs.forEach((_, inputIndex) => {
      const id = spentEntries[inputIndex]?.covenantId;
      if (!id) return;
      const key = bytesToHex(id);
      const entry = members.get(key) ?? { inputs: [], outputs: [] };
      entry.inputs.push(inputIndex);
      members.set(key, entry);
    });

    tx.outputs.forEach((output, outputIndex) => {
      const binding = output.covenant;
      if (!binding) return;
      const authorizingInput = binding.authorizingInput;
      const spent = authorizingInput < tx.inputs.length ? spentEntries[authorizingInput] : undefined;
      if (!spent) throw new CovenantError({ kind: 'AuthInputOutOfBounds', outputIndex, authorizingInput });
      const key = bytesToHex(binding.covenantId);
      if (spent.covenantId && bytesToHex(spent.covenantId) === key) {
        const outputs = authorized.get(authorizingInput) ?? [];
        outputs.push(outputIndex);
        authorized.set(authorizingInput, outputs);
        members.get(key)!.outputs.push(outputIndex);
        continuations.push(outputIndex);
        return;
      }
      const groupKey = `${authorizingInput}:${key}`;
      const group = genesis.get(groupKey) ?? { authorizingInput, covenantId: binding.covenantId, outputs: [] };
      group.outputs.push(outputIndex);
      genesis.set(groupKey, group);
    });

    for (const group of genesis.values()) {
      const expected = covenantId(
        tx.inputs[group.authorizingInput]!.previousOutpoint,
        group.outputs.map((index) => ({ index, output: tx.outputs[index]! })),
      );
      if (bytesToHex(expected) !== bytesToHex(group.covenantId)) {
        throw new CovenantError({ kind: 'WrongGenesisCovenantId', inputIndex: group.authorizingInput, covenantId: group.covenantId });
      }
    }
    return new CovenantsContext(authorized, members, continuations, [...genesis.values()]);
  }

  /** OpAuthOutputCount: how many continuation outputs input `inputIndex` authorizes. */
  authorizedOutputCount(inputIndex: number): number {
    return this.authorized.get(inputIndex)?.length ?? 0;
  }

  /** OpAuthOutputIdx: the output index of input `inputIndex`'s k-th authorized output. */
  authorizedOutputIndex(inputIndex: number, k: number): number {
    const outputs = this.authorized.get(inputIndex) ?? [];
    const index = outputs[k];
    if (index === undefined) {
      throw new CovenantError({ kind: 'InvalidAuthCovOutIndex', k, inputIndex, authorizedCount: outputs.length });
    }
    return index;
  }

  /** OpCovInputCount: how many inputs spend an entry carrying `id`. */
  covenantInputCount(id: Hash): number {
    return this.members.get(bytesToHex(id))?.inputs.length ?? 0;
  }

  /** OpCovInputIdx: the input index of the k-th input carrying `id`. */
  covenantInputIndex(id: Hash, k: number): number {
    return this.memberAt(id, k, 'inputs');
  }

  /** OpCovOutputCount: how many continuation outputs carry `id`. */
  covenantOutputCount(id: Hash): number {
    return this.members.get(bytesToHex(id))?.outputs.length ?? 0;
  }

  /** OpCovOutputIdx: the output index of the k-th continuation output carrying `id`. */
  covenantOutputIndex(id: Hash, k: number): number {
    return this.memberAt(id, k, 'outputs');
  }

  private memberAt(id: Hash, k: number, side: keyof CovenantMembers): number {
    const index = this.members.get(bytesToHex(id))?.[side][k];
    if (index === undefined) {
      throw new CovenantError({ kind: side === 'inputs' ? 'InvalidCovInIndex' : 'InvalidCovOutIndex', covenantId: id, k });
    }
    return index;
  }
}

/** A wallet's request to bind `outputs` to a new covenant authorized by `authorizingInput` (tx.rs `GenesisCovenantGroup`). */
export interface GenesisCovenantGroup {
  authorizingInput: number;
  /** Output indices in ascending order. */
  outputs: readonly number[];
}

export type PopulateGenesisCovenantsErrorDetail =
  | { kind: 'EmptyOutputs' }
  | { kind: 'NoSuchInput'; inputIndex: number; inputCount: number }
  | { kind: 'NoSuchOutput'; outputIndex: number; outputCount: number }
  | { kind: 'OutputsNotOrdered' }
  | { kind: 'OutputsNotDisjoint'; outputIndex: number }
  | { kind: 'CovenantAlreadyPopulated'; outputIndex: number };

function populateErrorMessage(detail: PopulateGenesisCovenantsErrorDetail): string {
  switch (detail.kind) {
    case 'EmptyOutputs':
      return 'outputs list is empty';
    case 'NoSuchInput':
      return `authorizing input index ${detail.inputIndex} is out of bounds for ${detail.inputCount} inputs`;
    case 'NoSuchOutput':
      return `output index ${detail.outputIndex} is out of bounds for ${detail.outputCount} outputs`;
    case 'OutputsNotOrdered':
      return 'outputs are not strictly ordered';
    case 'OutputsNotDisjoint':
      return `output index ${detail.outputIndex} appears in more than one group`;
    case 'CovenantAlreadyPopulated':
      return `output index ${detail.outputIndex} covenant field is already populated`;
  }
}

/** `PopulateGenesisCovenantsError` of consensus/core/src/errors/tx.rs; `message` is its Display text. */
export class PopulateGenesisCovenantsError extends DetailedError<PopulateGenesisCovenantsErrorDetail> {
  override name = 'PopulateGenesisCovenantsError';

  constructor(detail: PopulateGenesisCovenantsErrorDetail) {
    super(detail, populateErrorMessage(detail));
  }
}

function validateGenesisRequests(tx: Transaction, groups: readonly GenesisCovenantGroup[]): void {
  const seen = new Set<number>();
  for (const { authorizingInput, outputs } of groups) {
    if (authorizingInput >= tx.inputs.length) {
      throw new PopulateGenesisCovenantsError({ kind: 'NoSuchInput', inputIndex: authorizingInput, inputCount: tx.inputs.length });
    }
    const last = outputs[outputs.length - 1];
    if (last === undefined) throw new PopulateGenesisCovenantsError({ kind: 'EmptyOutputs' });
    // Equal neighbours pass here and fail as not disjoint below, as in the source.
    if (outputs.some((index, i) => i > 0 && index < outputs[i - 1]!)) {
      throw new PopulateGenesisCovenantsError({ kind: 'OutputsNotOrdered' });
    }
    if (last >= tx.outputs.length) {
      throw new PopulateGenesisCovenantsError({ kind: 'NoSuchOutput', outputIndex: last, outputCount: tx.outputs.length });
    }
    for (const outputIndex of outputs) {
      if (seen.has(outputIndex)) throw new PopulateGenesisCovenantsError({ kind: 'OutputsNotDisjoint', outputIndex });
      seen.add(outputIndex);
      if (tx.outputs[outputIndex]!.covenant) {
        throw new PopulateGenesisCovenantsError({ kind: 'CovenantAlreadyPopulated', outputIndex });
      }
    }
  }
}

/**
 * Returns `tx` with every requested group's outputs bound to `covenantId(outpoint of its authorizing input, outputs)`.
 * All groups are validated before anything is bound; throws PopulateGenesisCovenantsError.
 */
export function populateGenesisCovenants(tx: Transaction, groups: readonly GenesisCovenantGroup[]): Transaction {
  validateGenesisRequests(tx, groups);
  const bindings = new Map<number, Covenant>();
  for (const { authorizingInput, outputs } of groups) {
    const id = covenantId(
      tx.inputs[authorizingInput]!.previousOutpoint,
      outputs.map((index) => ({ index, output: tx.outputs[index]! })),
    );
    for (const index of outputs) bindings.set(index, { authorizingInput, covenantId: id });
  }
  return { ...tx, outputs: tx.outputs.map((output, index) => ({ ...output, covenant: bindings.get(index) ?? output.covenant ?? null })) };
}
