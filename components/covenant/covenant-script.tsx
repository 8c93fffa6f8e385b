'use client';

import { useState } from 'react';
import { scriptClassOf } from '@/lib/kaspa/address';
import { hexToBytes } from '@/lib/kaspa/bytes';
import { disassembleHex, revealedRedeemScript } from '@/lib/web/script-disassembly';
import { CopyButton } from '../ui';

function ScriptText({ hex, testId }: { hex: string; testId: string }) {
  const [view, setView] = useState<'asm' | 'hex'>('asm');
  const { operations, error } = disassembleHex(hex);
  return (
    <div>
      <div className="mb-1 flex items-center gap-2 text-xs" role="group" aria-label="Script view">
        {(['asm', 'hex'] as const).map((option) => (
          <button
            key={option}
            type="button"
            aria-pressed={view === option}
            onClick={() => setView(option)}
            className={`rounded border px-2 py-0.5 ${
              view === option
                ? 'border-teal-600 bg-teal-50 text-teal-900 dark:border-teal-400 dark:bg-teal-950 dark:text-teal-100'
                : 'border-slate-300 text-slate-700 dark:border-slate-700 dark:text-slate-300'
            }`}
          >
            {option === 'asm' ? 'Opcodes' : 'Hex'}
          </button>
        ))}
        <CopyButton text={hex} label="Copy script hex" />
      </div>
      <pre
        className="max-h-72 overflow-auto rounded bg-slate-100 p-2 font-mono text-xs break-all whitespace-pre-wrap dark:bg-slate-800"
        data-testid={testId}
      >
        {view === 'hex' ? hex : operations.join(' ')}
        {view === 'asm' && error !== null && `\n[stops here: ${error}]`}
      </pre>
    </div>
  );
}

/**
 * The covenant's scripts: the current state's script public key with its class, and the redeem script the most recent
 * spend revealed (a covenant state is a P2SH output; its rules show only when it is spent), read by the same parser
 * the script engine uses.
 */
export function CovenantScript({
  scriptPublicKey,
  latestSpendSignatureScript,
}: {
  scriptPublicKey: { version: number; script: string } | null;
  latestSpendSignatureScript: string | null;
}) {
  const redeem = latestSpendSignatureScript === null ? null : revealedRedeemScript(latestSpendSignatureScript);
  const scriptClass =
    scriptPublicKey === null ? null : scriptClassOf({ version: scriptPublicKey.version, script: hexToBytes(scriptPublicKey.script) });
  return (
    <div className="space-y-4 text-sm">
      <div>
        <h3 className="mb-1 text-xs font-medium uppercase text-slate-500 dark:text-slate-400">
          Current state&apos;s script public key{scriptClass !== null && ` (${scriptClass}, version ${scriptPublicKey!.version})`}
        </h3>
        {scriptPublicKey === null ? (
          <p className="text-slate-600 dark:text-slate-400">No current output: the lineage has ended.</p>
        ) : (
          <ScriptText hex={scriptPublicKey.script} testId="covenant-spk" />
        )}
      </div>
      <div>
        <h3 className="mb-1 text-xs font-medium uppercase text-slate-500 dark:text-slate-400">Redeem script revealed by the latest spend</h3>
        {redeem === null ? (
          <p className="text-slate-600 dark:text-slate-400">
            Not revealed yet: a P2SH state shows its script only when it is spent, and no loaded transaction spends one.
          </p>
        ) : (
          <>
            <p className="mb-2 text-slate-600 dark:text-slate-400">
              The rules of the state before the current one, as its spender revealed them. A state-machine covenant keeps
              its body from state to state; its leading pushes hold the state.
            </p>
            <ScriptText hex={redeem} testId="covenant-redeem-script" />
          </>
        )}
      </div>
    </div>
  );
}
