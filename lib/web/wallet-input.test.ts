import { describe, expect, it } from 'vitest';
import { parseStoredWallet, parseWalletFragment, parseWalletInput, walletFragment, walletInputText } from './wallet-input';

const KPUB =
  'kpub2HtoTgsG6e1c7ixJ6JY49otNSzhEKkwnH6bsPHLAXUMYnsRn8ECsKkWvWsQTtJyYXK8Sx3z2EBY1xjPCqsXq8DVDpDmdG2mQMiZDT9RHFwy';
const ADDRESS_A = 'kaspadev:qr0lr4ml9fn3chekrqmjdkergxl93l4wrk3dankcgvjq776s9wn9jhtkdksae';
const ADDRESS_B = 'kaspadev:qzgdlwn3qa8t4d7lf4lrvqklrfm4y7f8fw9t5ytzyejqscsk9d4y7x3vz39zm';

describe('parseWalletInput', () => {
  it('takes one extended public key, trimmed', () => {
    expect(parseWalletInput(`  ${KPUB}\n`)).toEqual({ source: { extendedPublicKey: KPUB } });
  });

  it('says when a key was cut short rather than treating it as an address', () => {
    expect(parseWalletInput(KPUB.slice(0, 60))).toEqual({ error: expect.stringMatching(/not a whole extended public key/) });
  });

  it('takes addresses separated by lines, spaces or commas, each once, in lower case', () => {
    expect(parseWalletInput(`${ADDRESS_A},\n${ADDRESS_B.toUpperCase()} ${ADDRESS_A}`)).toEqual({
      source: { addresses: [ADDRESS_A, ADDRESS_B] },
    });
  });

  it('names the first item that is not an address', () => {
    expect(parseWalletInput(`${ADDRESS_A} bitcoin:abc`)).toEqual({ error: 'Not a Kaspa address: bitcoin:abc' });
    expect(parseWalletInput('  ')).toEqual({ error: expect.stringMatching(/^Paste/) });
  });
});

describe('share fragment and session storage', () => {
  it('round-trips a key and an address list through the fragment', () => {
    for (const source of [{ extendedPublicKey: KPUB }, { addresses: [ADDRESS_A, ADDRESS_B] }]) {
      expect(parseWalletFragment(`#${walletFragment(source)}`)).toEqual(source);
    }
    expect(walletFragment({ extendedPublicKey: KPUB })).toBe(`key=${KPUB}`);
  });

  it('ignores fragments that name no wallet or a malformed one', () => {
    expect(parseWalletFragment('')).toBeNull();
    expect(parseWalletFragment('#section')).toBeNull();
    expect(parseWalletFragment('#key=kpubshort')).toBeNull();
  });

  it('reads back what the page stored and nothing else', () => {
    expect(parseStoredWallet(JSON.stringify({ extendedPublicKey: KPUB }))).toEqual({ extendedPublicKey: KPUB });
    expect(parseStoredWallet(JSON.stringify({ addresses: [ADDRESS_A] }))).toEqual({ addresses: [ADDRESS_A] });
    expect(parseStoredWallet(null)).toBeNull();
    expect(parseStoredWallet('{not json')).toBeNull();
    expect(parseStoredWallet(JSON.stringify({ addresses: [1] }))).toBeNull();
  });

  it('shows a source in the input as it was given', () => {
    expect(walletInputText({ addresses: [ADDRESS_A, ADDRESS_B] })).toBe(`${ADDRESS_A}\n${ADDRESS_B}`);
  });
});
