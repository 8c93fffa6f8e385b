import { NotFoundPage } from '@/components/not-found-page';

export default function CovenantNotFound() {
  return (
    <NotFoundPage heading="Covenant not found">
      <p>
        The index holds no covenant with this id. A covenant id is 64 hexadecimal characters (0–9, a–f), the KIP-20 id a
        genesis transaction gives its bound outputs; it is neither a transaction id nor a block hash, though it looks like
        one. A covenant appears here once its genesis transaction is accepted.
      </p>
    </NotFoundPage>
  );
}
