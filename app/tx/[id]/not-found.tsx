import { NotFoundPage } from '@/components/not-found-page';

export default function TransactionNotFound() {
  return (
    <NotFoundPage heading="Transaction not found">
      <p>
        Neither the index nor the node&apos;s mempool holds a transaction with this id. A transaction id is 64 hexadecimal
        characters (0–9, a–f). A freshly submitted transaction appears within a second; one that was never accepted into
        the mempool, or that belongs to another network, never does. A block hash is also 64 hex characters: try the
        search box if you meant one.
      </p>
    </NotFoundPage>
  );
}
