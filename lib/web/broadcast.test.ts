import { describe, expect, it } from 'vitest';
import { broadcastStage, parseBroadcastInput } from './broadcast';

const transaction = `{"version":1,"inputs":[{"previousOutpoint":{"transactionId":"${'ab'.repeat(32)}","index":0},"signatureScript":"41","sequence":0,"sigOpCount":1,"computeBudget":1}],"outputs":[{"value":18446744073709551615,"scriptPublicKey":{"version":0,"scriptPublicKey":"20"}}],"lockTime":0,"subnetworkId":"${'00'.repeat(20)}","gas":0,"payload":""}`;

describe('parseBroadcastInput', () => {
  it('takes a bare transaction and keeps a u64 amount exact', () => {
    const parsed = parseBroadcastInput(transaction, false);
    expect(parsed.ok).toBe(true);
    if (!parsed.ok) return;
    expect(parsed.allowOrphan).toBe(false);
    const outputs = parsed.transaction.outputs as { value: unknown }[];
    expect(outputs[0]!.value).toBe(18446744073709551615n);
  });

  it('takes a submitTransaction body, its allowOrphan or the form\'s', () => {
    const body = parseBroadcastInput(`{"transaction":${transaction},"allowOrphan":true}`, false);
    expect(body).toMatchObject({ ok: true, allowOrphan: true });
    expect(parseBroadcastInput(`{"transaction":${transaction}}`, true)).toMatchObject({ ok: true, allowOrphan: true });
    expect(parseBroadcastInput(`{"transaction":${transaction}}`, false)).toMatchObject({ ok: true, allowOrphan: false });
  });

  it('says what is wrong with text that is not a transaction', () => {
    expect(parseBroadcastInput('  ', false)).toEqual({ ok: false, message: 'Paste a signed transaction as JSON.' });
    expect(parseBroadcastInput('{"inputs": [', false)).toMatchObject({ ok: false, message: expect.stringMatching(/^This is not valid JSON: /) });
    expect(parseBroadcastInput('[1,2]', false)).toMatchObject({ ok: false, message: expect.stringMatching(/^Expected a JSON object/) });
    expect(parseBroadcastInput('{"transaction":{"inputs":[]}}', false)).toMatchObject({ ok: false, message: expect.stringMatching(/"inputs" and "outputs"/) });
  });
});

describe('broadcastStage', () => {
  it('follows the transaction from the mempool to acceptance', () => {
    expect(broadcastStage(null, null)).toBe('unknown');
    expect(broadcastStage(null, { isOrphan: false })).toBe('mempool');
    expect(broadcastStage(null, { isOrphan: true })).toBe('orphan');
    expect(broadcastStage({ isAccepted: false, blockHashes: ['aa'] }, null)).toBe('included');
    expect(broadcastStage({ isAccepted: true, blockHashes: ['aa'] }, { isOrphan: false })).toBe('accepted');
  });
});
