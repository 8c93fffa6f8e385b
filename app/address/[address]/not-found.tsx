import { NotFoundPage } from '@/components/not-found-page';

export default function AddressNotFound() {
  return (
    <NotFoundPage heading="Not a valid address">
      <p>
        This is not a Kaspa address of this network. An address is the network&apos;s prefix (<code className="font-mono">kaspa:</code>{' '}
        on mainnet, <code className="font-mono">kaspadev:</code> on a devnet), a colon and 61 to 63 characters of
        bech32 (lower case letters and digits, without 1, b, i and o), ending in a checksum that a typo breaks.
      </p>
    </NotFoundPage>
  );
}
