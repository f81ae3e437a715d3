// Two connections joined end to end: what one sends the other receives, and when
// either ends or fails both are torn down, so neither is left half open.
import type { Duplex } from 'node:stream';

export function splice(a: Duplex, b: Duplex): void {
  a.pipe(b);
  b.pipe(a);
  const destroyBoth = () => {
    a.destroy();
    b.destroy();
  };
  a.on('error', destroyBoth).on('close', destroyBoth);
  b.on('error', destroyBoth).on('close', destroyBoth);
}
