import { NotFoundPage } from '@/components/not-found-page';

export default function BlockNotFound() {
  return (
    <NotFoundPage heading="Block not found">
      <p>
        The node does not know a block with this hash. A block hash is 64 hexadecimal characters (0–9, a–f). The block
        may belong to another network, or be older than the node&apos;s pruning point. A transaction id is also 64 hex
        characters: try the search box if you meant one.
      </p>
    </NotFoundPage>
  );
}
