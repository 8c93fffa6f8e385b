import { describe, expect, it } from 'vitest';
import { bytesToHex } from '../../lib/kaspa/bytes';
import { buildEnvelopeScript, buildRevealSignatureScript, opJson } from '../../lib/tokens';
import { PLACEHOLDER_SIGNATURE, ecdsaParty, schnorrParty } from '../../lib/tokens/test-support/transactions';
import { decodeKrc20Operation } from './krc20-operation';

const text = (value: string) => bytesToHex(new TextEncoder().encode(value));

function revealScript(signer: ReturnType<typeof schnorrParty>, json: string): string {
  return bytesToHex(buildRevealSignatureScript(PLACEHOLDER_SIGNATURE, buildEnvelopeScript(signer.signerScript, json)));
}

describe('decodeKrc20Operation', () => {
  it('decodes an envelope on the reveal input with its signer as sender', () => {
    const signer = schnorrParty(7);
    const json = opJson({ p: 'krc-20', op: 'mint', tick: 'DAGB' });
    const decoded = decodeKrc20Operation(
      { payload: '0x', inputs: [{ signatureScript: 'aa' }, { signatureScript: revealScript(signer, json) }] },
      'kaspadev',
    );
    expect(decoded).toEqual({
      source: 'envelope',
      inputIndex: 1,
      sender: signer.address,
      fields: [
        ['p', 'krc-20'],
        ['op', 'mint'],
        ['tick', 'DAGB'],
      ],
      json,
    });
  });

  it('derives an ECDSA signer address', () => {
    const signer = ecdsaParty(3);
    const decoded = decodeKrc20Operation(
      { payload: '0x', inputs: [{ signatureScript: revealScript(signer, opJson({ p: 'KRC-20', op: 'transfer', tick: 'ABCD', amt: '5', to: 'x' })) }] },
      'kaspadev',
    );
    expect(decoded?.sender).toBe(signer.address);
    expect(decoded?.fields).toContainEqual(['amt', '5']);
  });

  it('ignores envelopes of other protocols and non-envelope scripts', () => {
    const signer = schnorrParty(9);
    const other = revealScript(signer, JSON.stringify({ p: 'krc-721', op: 'mint' }));
    expect(decodeKrc20Operation({ payload: '0x', inputs: [{ signatureScript: other }, { signatureScript: '41' + '00'.repeat(65) }] }, 'kaspadev')).toBeNull();
  });

  it('decodes a KRC-20 payload op with input 0 as sender', () => {
    const json = '{"p":"krc-20","op":"transfer","tick":"DAGB","amt":"100","to":"kaspadev:q"}';
    const decoded = decodeKrc20Operation(
      { payload: `0x${text(json)}`, inputs: [{ signatureScript: '41' + '00'.repeat(65), previousAddress: 'kaspadev:sender' }] },
      'kaspadev',
    );
    expect(decoded).toMatchObject({ source: 'payload', inputIndex: null, sender: 'kaspadev:sender', json });
    expect(decoded?.fields.map(([name]) => name)).toEqual(['p', 'op', 'to', 'tick', 'amt']);
  });

  it('returns null for plain payloads and payload ops with non-string values', () => {
    expect(decodeKrc20Operation({ payload: `0x${text('hello')}`, inputs: [] }, 'kaspadev')).toBeNull();
    expect(decodeKrc20Operation({ payload: `0x${text('{"p":"krc-20","op":"mint","amt":5}')}`, inputs: [] }, 'kaspadev')).toBeNull();
    expect(decodeKrc20Operation({ payload: '0x', inputs: [] }, 'kaspadev')).toBeNull();
  });
});
