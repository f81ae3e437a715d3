// One output stream of a sandboxed process, kept up to a byte cap and drained
// beyond it, so that code printing forever neither blocks on a full pipe nor
// fills the host's memory.
import type { Readable } from 'node:stream';

export class CappedOutput {
  private readonly chunks: Buffer[] = [];
  private size = 0;
  private dropped = 0;

  constructor(
    stream: Readable | null | undefined,
    private readonly cap: number,
  ) {
    stream?.on('data', (chunk: Buffer) => this.add(chunk));
    stream?.on('error', () => {});
  }

  private add(chunk: Buffer): void {
    const room = this.cap - this.size;
    if (room <= 0) {
      this.dropped += chunk.length;
      return;
    }
    const kept = chunk.length > room ? chunk.subarray(0, room) : chunk;
    this.chunks.push(kept);
    this.size += kept.length;
    this.dropped += chunk.length - kept.length;
  }

  get truncated(): boolean {
    return this.dropped > 0;
  }

  text(): string {
    const text = Buffer.concat(this.chunks).toString('utf8');
    return this.truncated ? `${text}\n[${this.dropped} more bytes dropped: output is cut at ${this.cap} bytes (SANDBOX_MAX_OUTPUT_BYTES)]\n` : text;
  }
}
