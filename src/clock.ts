/**
 * The one clock. It reads `start` at creation and runs on in real time from there, so a server
 * started with NOW=… behaves as if it were that moment. Nothing else reads Date.now().
 */
export class Clock {
  private readonly offset: number;
  constructor(start?: string | number) {
    const at = start === undefined ? undefined : typeof start === 'number' ? start : Date.parse(start);
    if (at !== undefined && Number.isNaN(at)) throw new Error(`NOW is not an ISO timestamp: ${String(start)}`);
    this.offset = at === undefined ? 0 : at - Date.now();
  }
  now(): number {
    return Date.now() + this.offset;
  }
  date(): Date {
    return new Date(this.now());
  }
}
