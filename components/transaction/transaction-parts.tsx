'use client';

import Link from 'next/link';
import type { ReactNode } from 'react';
import { StackedTable, type StackedColumn } from '@/components/stacked-table';
import { AddressLink, Card, CovenantLink, Kas, TransactionLink } from '@/components/ui';
import { formatFeeRate, formatInteger } from '@/lib/web/format';
import { pages } from '@/lib/web/urls';
import type { DecodedKrc20 } from './krc20-operation';
import { TokenOperationResult } from './token-operation-result';

const OUTPUT_COLUMNS: readonly StackedColumn[] = [
  { label: '#' },
  { label: 'Address' },
  { label: 'Script' },
  { label: 'Covenant' },
  { label: 'Amount', alignRight: true },
];

const INPUT_COLUMNS: readonly StackedColumn[] = [
  { label: '#' },
  { label: 'Spends output' },
  { label: 'From address' },
  { label: 'Budget' },
  { label: 'Amount', alignRight: true },
];

/** Pieces the indexed and the pending transaction views share. */

export const COINBASE_SUBNETWORK = '0100000000000000000000000000000000000000';

export function StatusPanel({ tone, heading, children }: { tone: 'ok' | 'wait' | 'warn'; heading: ReactNode; children: ReactNode }) {
  const style = {
    ok: 'border-teal-600 bg-teal-50 text-teal-950 dark:border-teal-500 dark:bg-teal-950 dark:text-teal-50',
    wait: 'border-sky-500 bg-sky-50 text-sky-950 dark:border-sky-500 dark:bg-sky-950 dark:text-sky-50',
    warn: 'border-amber-500 bg-amber-50 text-amber-950 dark:border-amber-500 dark:bg-amber-950 dark:text-amber-50',
  }[tone];
  return (
    <section aria-label="Status" className={`rounded-lg border p-4 ${style}`}>
      <p className="text-lg font-semibold" data-testid="transaction-status">
        {heading}
      </p>
      <div className="mt-1 text-sm">{children}</div>
    </section>
  );
}

export function feeRateText(fee: bigint | null, mass: bigint): string {
  if (fee === null || mass === 0n) return '—';
  return formatFeeRate(Number(fee) / Number(mass));
}

export interface OutputRow {
  index: number;
  amount: string;
  address: string | null;
  type: string | null;
  /** KIP-20: the covenant the output is bound to and the input that authorizes it. */
  covenant: { authorizingInput: number; covenantId: string } | null;
}

function CovenantBinding({ binding }: { binding: OutputRow['covenant'] }) {
  if (binding === null) return <span className="text-slate-500 dark:text-slate-400">—</span>;
  return (
    <span className="inline-flex flex-wrap items-center gap-x-2">
      <CovenantLink id={binding.covenantId} />
      <span className="text-xs text-slate-600 dark:text-slate-400">by input {binding.authorizingInput}</span>
    </span>
  );
}

export function OutputsTable({ outputs }: { outputs: readonly OutputRow[] }) {
  return (
    <StackedTable label="Outputs" caption="Outputs" columns={OUTPUT_COLUMNS} density="detail">
      {outputs.map((output) => (
        <tr key={output.index} className="border-t border-slate-100 dark:border-slate-800">
          <td data-label="#" className="py-1 pr-3 tabular-nums">{output.index}</td>
          <td data-label="Address" className="py-1 pr-3">
            {output.address === null ? <span className="text-slate-500 dark:text-slate-400">no address form</span> : <AddressLink address={output.address} copy />}
          </td>
          <td data-label="Script" className="py-1 pr-3">{output.type ?? '—'}</td>
          <td data-label="Covenant" className="py-1 pr-3" data-testid="output-covenant">
            <CovenantBinding binding={output.covenant} />
          </td>
          <td data-label="Amount" className="py-1 text-right">
            <Kas sompi={output.amount} digits={8} />
          </td>
        </tr>
      ))}
    </StackedTable>
  );
}

export interface InputRow {
  index: number;
  previousTransactionId: string;
  previousIndex: number;
  amount: string | null;
  address: string | null;
  /** Version 1: the script units committed for the input, in units of 10,000; null for version 0. */
  computeBudget: number | null;
  /** Version 0: the signature operations committed for the input. */
  sigOpCount: number;
  /** The covenant the spent output was bound to, when known. */
  previousCovenantId: string | null;
}

function BudgetText({ input }: { input: InputRow }) {
  if (input.computeBudget === null) return <>{input.sigOpCount} sig op{input.sigOpCount === 1 ? '' : 's'}</>;
  return (
    <span title={`${formatInteger(input.computeBudget * 10_000)} script units`}>
      {formatInteger(input.computeBudget)} <span className="text-xs text-slate-600 dark:text-slate-400">× 10,000 units</span>
    </span>
  );
}

export function InputsTable({ inputs }: { inputs: readonly InputRow[] }) {
  if (inputs.length === 0) return <p className="text-sm text-slate-600 dark:text-slate-400">None: a coinbase transaction creates new coins.</p>;
  return (
    <StackedTable label="Inputs" caption="Inputs and the outputs they spend" columns={INPUT_COLUMNS} density="detail">
      {inputs.map((input) => (
        <tr key={input.index} className="border-t border-slate-100 dark:border-slate-800">
          <td data-label="#" className="py-1 pr-3 tabular-nums">{input.index}</td>
          <td data-label="Spends output" className="py-1 pr-3 whitespace-nowrap">
            <TransactionLink id={input.previousTransactionId} />
            <span className="text-slate-500 dark:text-slate-400">:{input.previousIndex}</span>
          </td>
          <td data-label="From address" className="py-1 pr-3">
            <span className="flex flex-col gap-0.5">
              {input.address === null ? (
                <span
                  className="text-slate-500 dark:text-slate-400"
                  title="The spent output was created before the indexed history begins: in a pruned node's imported UTXO set, or on the devnet in its genesis bootstrap."
                >
                  not indexed
                </span>
              ) : (
                <AddressLink address={input.address} copy />
              )}
              {input.previousCovenantId !== null && <CovenantLink id={input.previousCovenantId} />}
            </span>
          </td>
          <td data-label="Budget" className="py-1 pr-3 whitespace-nowrap tabular-nums" data-testid="input-budget">
            <BudgetText input={input} />
          </td>
          <td data-label="Amount" className="py-1 text-right">{input.amount === null ? '—' : <Kas sompi={input.amount} digits={8} />}</td>
        </tr>
      ))}
    </StackedTable>
  );
}

function hexToBytes(hex: string): Uint8Array {
  const bytes = new Uint8Array(hex.length / 2);
  for (let index = 0; index < bytes.length; index++) bytes[index] = parseInt(hex.slice(index * 2, index * 2 + 2), 16);
  return bytes;
}

/** The payload as UTF-8 text when it decodes cleanly and holds no control characters other than whitespace. */
export function printableText(hex: string): string | null {
  const plain = hex.startsWith('0x') ? hex.slice(2) : hex;
  if (plain === '') return null;
  try {
    const text = new TextDecoder('utf-8', { fatal: true }).decode(hexToBytes(plain));
    return /[\u0000-\u0008\u000b\u000c\u000e-\u001f\u007f]/.test(text) ? null : text;
  } catch {
    return null;
  }
}

export function PayloadCard({ payload, coinbase }: { payload: string; coinbase: boolean }) {
  const hex = payload.startsWith('0x') ? payload.slice(2) : payload;
  const text = printableText(hex);
  return (
    <Card title={`Payload (${formatInteger(hex.length / 2)} bytes)`}>
      {hex === '' ? (
        <p className="text-sm text-slate-600 dark:text-slate-400">Empty.</p>
      ) : (
        <div className="space-y-3 text-sm">
          {coinbase && (
            <p className="text-slate-600 dark:text-slate-400">
              A coinbase payload carries the block&apos;s blue score, the subsidy, the miner&apos;s script and free-form
              miner data.
            </p>
          )}
          <div>
            <h3 className="text-xs font-medium uppercase text-slate-500 dark:text-slate-400">Hex</h3>
            <pre className="mt-1 max-h-48 overflow-auto rounded bg-slate-100 p-2 font-mono text-xs break-all whitespace-pre-wrap dark:bg-slate-800" data-testid="payload-hex">
              {hex}
            </pre>
          </div>
          <div>
            <h3 className="text-xs font-medium uppercase text-slate-500 dark:text-slate-400">Text (UTF-8)</h3>
            {text === null ? (
              <p className="mt-1 text-slate-600 dark:text-slate-400">Not printable UTF-8 text.</p>
            ) : (
              <pre className="mt-1 max-h-48 overflow-auto rounded bg-slate-100 p-2 text-xs break-words whitespace-pre-wrap dark:bg-slate-800" data-testid="payload-text">
                {text}
              </pre>
            )}
          </div>
        </div>
      )}
    </Card>
  );
}

/** A field as written; ticker and recipient link to their pages, amounts say their unit (the result below scales them). */
function Krc20Field({ name, value }: { name: string; value: string }) {
  if (name === 'tick' && /^[a-z]{4,6}$/i.test(value)) {
    return (
      <Link href={pages.token(value)} className="text-teal-700 hover:underline dark:text-teal-400">
        {value}
      </Link>
    );
  }
  if (name === 'to' && /^kaspa(dev|test|sim)?:[a-z0-9]+$/.test(value)) return <AddressLink address={value} full />;
  if (name === 'amt' || name === 'max' || name === 'lim' || name === 'pre') {
    return (
      <>
        {value} <span className="font-sans text-xs text-slate-500 dark:text-slate-400">smallest units</span>
      </>
    );
  }
  return <>{value}</>;
}

/** `transactionId` is given once the transaction is in a block: then the token indexer's verdict is shown too. */
export function Krc20Card({ operation, transactionId }: { operation: DecodedKrc20; transactionId?: string }) {
  return (
    <Card title="KRC-20 operation">
      <div className="space-y-2 text-sm" data-testid="krc20-operation">
        <p className="text-slate-700 dark:text-slate-300">
          {operation.source === 'envelope'
            ? `Inscribed in the envelope of input ${operation.inputIndex ?? 0} (a Kasplex commit/reveal).`
            : 'Carried in the transaction payload.'}{' '}
          This is the operation as written; the token indexer decides whether it applies.
        </p>
        <dl className="grid grid-cols-[6rem_1fr] gap-x-4 gap-y-1">
          {operation.sender !== null && (
            <>
              <dt className="text-slate-500 dark:text-slate-400">sender</dt>
              <dd className="min-w-0">
                <AddressLink address={operation.sender} copy />
              </dd>
            </>
          )}
          {operation.fields.map(([name, value]) => (
            <div key={name} className="contents">
              <dt className="text-slate-500 dark:text-slate-400">{name}</dt>
              <dd className="min-w-0 font-mono break-all">
                <Krc20Field name={name} value={value} />
              </dd>
            </div>
          ))}
        </dl>
        {transactionId !== undefined && <TokenOperationResult transactionId={transactionId} />}
      </div>
    </Card>
  );
}
