import type { DevnetNodeEvent } from './node';
import { FORK_NEVER } from './consensus/params';

const activationText = (activation: bigint) => (activation === FORK_NEVER ? 'never' : `DAA score ${activation}`);

/** One log line for a node event; errors carry their message only. */
export function describeNodeEvent(event: DevnetNodeEvent): string {
  switch (event.type) {
    case 'replayed':
      return (
        `replayed ${event.blocks} blocks in ${(event.milliseconds / 1000).toFixed(1)} s` +
        (event.snapshotBlueScore === null ? ' from genesis' : ` from the snapshot at blue score ${event.snapshotBlueScore}`)
      );
    case 'logRecovered': {
      const { recovery } = event;
      return (
        `block log recovered after an unclean stop: dropped ${recovery.droppedRecords} record(s) (${recovery.droppedBytes} bytes) ` +
        `from line ${recovery.line} on (${recovery.reason}: ${recovery.detail}), kept ${recovery.keptRecords}; ` +
        `the dropped bytes are in ${recovery.savedTo}`
      );
    }
    case 'chainSuperseded':
      return (
        `the stored chain ran Toccata from ${activationText(event.recordedActivation)}, this node from ` +
        `${activationText(event.activation)}: starting a fresh chain (the old one moved to ${event.archivedTo})`
      );
    case 'listening':
      return `listening on ${event.url}`;
    case 'error':
      return `error in ${event.source}: ${event.error instanceof Error ? event.error.message : String(event.error)}`;
  }
}
