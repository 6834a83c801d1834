/**
 * The carrier sandbox: a local stand-in for Twilio that runs every step here, keeping its own
 * records (SandboxCarrierObject: numbers sold, port requests). Its numbers are the fictional
 * 555-0100 … 555-0199 lines of the live cities' area codes, and the last two digits of a number
 * pick what happens, like a payment sandbox's test cards:
 * - 00-49: bought, active at once;
 * - 50-89: bought, pending with the carrier for PENDING_MINUTES, then active;
 * - 90-99: bought, but the answer is lost on the way (the call fails as a timeout would), so the
 *   caller must look it up rather than buy again.
 * Portability: toll-free numbers and numbers ending in 9 are not portable, numbers this carrier
 * already holds neither; a port request is refused while another of the same number is open or
 * once the carrier holds the number; a submitted port completes PENDING_MINUTES later (the number
 * is then held, found with the port's idempotency key), or is rejected when the number ends in 8
 * (the current carrier refuses the account details) or the carrier came to hold it meanwhile.
 * A number released goes back to the pool: it shows in searches again.
 */
import { randomBytes } from 'node:crypto';
import type { Prisma, PrismaClient } from '../generated/prisma/client.js';
import type { Clock } from '../clock.js';
import { MINUTE } from '../core/time.js';
import { AREA_CODES, CarrierRefused, CarrierUnavailable, type Carrier, type CarrierNumber, type PortAuthorisation, type PortStatus } from './carrier.js';

export const PENDING_MINUTES = 10;
const TOLL_FREE = new Set(['800', '833', '844', '855', '866', '877', '888']);

interface NumberData {
  label: string;
  readyAt: number;
}
interface PortData {
  number: string;
  customerName: string;
  /** Only the last four digits, as a carrier shows them back; the PIN is never kept. */
  accountLast4: string;
  /** The bill sent with it: its type and size only, never its content. */
  bill: { contentType: string; bytes: number };
  completesAt: number;
  reason: string | null;
}

/** The line's last two digits, which pick the sandbox's behaviour. */
const tail = (number: string) => Number(number.slice(-2));
const isSandboxNumber = (number: string) => /^\+1\d{3}55501\d\d$/.test(number) && number.slice(2, 5) in AREA_CODES;

export class CarrierSandbox implements Carrier {
  readonly name = 'sandbox' as const;

  constructor(
    private readonly prisma: PrismaClient,
    private readonly clock: Clock,
  ) {}

  async searchNumbers(input: { areaCode: string; contains?: string; limit: number }) {
    const place = AREA_CODES[input.areaCode];
    if (!place) return [];
    const all = Array.from({ length: 100 }, (_, i) => `+1${input.areaCode}5550${100 + i}`);
    const sold = new Set((await this.prisma.sandboxCarrierObject.findMany({ where: { type: 'number', id: { in: all } }, select: { id: true } })).map((r) => r.id));
    return all
      .filter((n) => !sold.has(n) && (!input.contains || n.slice(2).includes(input.contains)))
      .slice(0, input.limit)
      .map((number) => ({ number, ...place }));
  }

  async purchaseNumber(input: { number: string; idempotencyKey: string; label: string }): Promise<CarrierNumber> {
    if (!isSandboxNumber(input.number)) throw new CarrierRefused(`${input.number} is not a number the carrier sells.`);
    const now = this.clock.now();
    const bought = await this.prisma.$transaction(async (tx) => {
      await tx.$executeRaw`SELECT pg_advisory_xact_lock(hashtext(${`sandbox-number:${input.number}`}))`;
      const same = await tx.sandboxCarrierObject.findUnique({ where: { idempotencyKey: `number:${input.idempotencyKey}` } });
      if (same) return same;
      if (await tx.sandboxCarrierObject.findUnique({ where: { id: input.number } })) throw new CarrierRefused(`${input.number} is no longer available.`);
      const pending = tail(input.number) >= 50 && tail(input.number) < 90;
      const data: NumberData = { label: input.label, readyAt: pending ? now + PENDING_MINUTES * MINUTE : now };
      return tx.sandboxCarrierObject.create({
        data: { id: input.number, type: 'number', status: pending ? 'pending' : 'active', idempotencyKey: `number:${input.idempotencyKey}`, data: data as unknown as Prisma.InputJsonObject, createdAt: new Date(now), updatedAt: new Date(now) },
      });
    });
    // The purchase went through; for these numbers its answer never arrives.
    if (tail(input.number) >= 90) throw new CarrierUnavailable('The carrier did not answer in time.');
    return this.state(bought);
  }

  async findNumber(input: { number: string; idempotencyKey: string }) {
    const row = await this.prisma.sandboxCarrierObject.findUnique({ where: { idempotencyKey: `number:${input.idempotencyKey}` } });
    return row && row.id === input.number ? this.state(row) : null;
  }

  /** A pending number becomes active once its provisioning time has passed. */
  private async state(row: { id: string; status: string; data: Prisma.JsonValue }): Promise<CarrierNumber> {
    const data = row.data as unknown as NumberData;
    if (row.status === 'pending' && data.readyAt <= this.clock.now()) {
      await this.prisma.sandboxCarrierObject.update({ where: { id: row.id }, data: { status: 'active', updatedAt: this.clock.date() } });
      return { number: row.id, status: 'active', carrierRef: row.id };
    }
    return { number: row.id, status: row.status === 'active' ? 'active' : 'pending', carrierRef: row.id };
  }

  async portability(number: string) {
    const area = number.slice(2, 5);
    if (TOLL_FREE.has(area)) return { number, portable: false, reason: 'Toll-free numbers cannot move to a local receptionist plan.', pinRequired: false };
    if (await this.prisma.sandboxCarrierObject.findFirst({ where: { type: 'number', id: number } })) {
      return { number, portable: false, reason: "This number is already with Porchlight's carrier.", pinRequired: false };
    }
    if (number.endsWith('9')) return { number, portable: false, reason: 'The current carrier does not release this number (sandbox: numbers ending in 9).', pinRequired: false };
    return {
      number,
      portable: true,
      reason: "It can move. The transfer needs the name, service address, account number and PIN on the current carrier's account, and the authorised person's consent.",
      pinRequired: true,
    };
  }

  async submitPort(input: { number: string; idempotencyKey: string; authorisation: PortAuthorisation }) {
    const key = `port:${input.idempotencyKey}`;
    const now = this.clock.now();
    const row = await this.prisma.$transaction(async (tx) => {
      await tx.$executeRaw`SELECT pg_advisory_xact_lock(hashtext(${`sandbox-number:${input.number}`}))`;
      const found = await tx.sandboxCarrierObject.findUnique({ where: { idempotencyKey: key } });
      if (found) return found;
      if (await tx.sandboxCarrierObject.findFirst({ where: { type: 'number', id: input.number } })) {
        throw new CarrierRefused(`${input.number} is already with Porchlight's carrier, so it cannot be transferred in.`);
      }
      if (await tx.sandboxCarrierObject.findFirst({ where: { type: 'port', status: 'submitted', data: { path: ['number'], equals: input.number } } })) {
        throw new CarrierRefused(`Another transfer of ${input.number} is already under way with the carrier.`);
      }
      return tx.sandboxCarrierObject.create({
        data: {
          id: `PR_sbx_${randomBytes(12).toString('hex')}`,
          type: 'port',
          status: 'submitted',
          idempotencyKey: key,
          data: {
            number: input.number,
            customerName: input.authorisation.customerName,
            accountLast4: input.authorisation.accountNumber.slice(-4),
            bill: { contentType: input.authorisation.bill.contentType, bytes: input.authorisation.bill.bytes.byteLength },
            completesAt: now + PENDING_MINUTES * MINUTE,
            reason: null,
          } satisfies PortData as unknown as Prisma.InputJsonObject,
          createdAt: new Date(now),
          updatedAt: new Date(now),
        },
      });
    });
    return { carrierRef: row.id, status: await this.portState(row) };
  }

  async portStatus(carrierRef: string) {
    const row = await this.prisma.sandboxCarrierObject.findFirst({ where: { id: carrierRef, type: 'port' } });
    if (!row) throw new CarrierRefused(`The carrier has no port request ${carrierRef}.`);
    return this.portState(row);
  }

  /**
   * A submitted port settles once its time has passed: rejected for numbers ending in 8 or a
   * number the carrier came to hold meanwhile, otherwise completed, the number then held under
   * the port's idempotency key.
   */
  private async portState(row: { id: string; status: string; data: Prisma.JsonValue }): Promise<PortStatus> {
    const data = row.data as unknown as PortData;
    if (row.status !== 'submitted' || data.completesAt > this.clock.now()) {
      return { status: row.status as PortStatus['status'], reason: data.reason, number: data.number };
    }
    return this.prisma.$transaction(async (tx) => {
      await tx.$executeRaw`SELECT pg_advisory_xact_lock(hashtext(${`sandbox-number:${data.number}`}))`;
      const current = await tx.sandboxCarrierObject.findUniqueOrThrow({ where: { id: row.id } });
      if (current.status !== 'submitted') return { status: current.status as PortStatus['status'], reason: (current.data as unknown as PortData).reason, number: data.number };
      const held = await tx.sandboxCarrierObject.findFirst({ where: { type: 'number', id: data.number } });
      const reason = data.number.endsWith('8')
        ? 'The current carrier refused the transfer: the account number or PIN did not match (sandbox: numbers ending in 8).'
        : held
          ? `${data.number} came to be held by Porchlight's carrier meanwhile, so it was not transferred.`
          : null;
      const now = this.clock.date();
      await tx.sandboxCarrierObject.update({
        where: { id: row.id },
        data: { status: reason ? 'rejected' : 'completed', data: { ...data, reason } as unknown as Prisma.InputJsonObject, updatedAt: now },
      });
      if (!reason) {
        const key = current.idempotencyKey!.slice('port:'.length);
        await tx.sandboxCarrierObject.create({
          data: { id: data.number, type: 'number', status: 'active', idempotencyKey: `number:${key}`, data: { label: `ported ${row.id}`, readyAt: now.getTime() }, createdAt: now, updatedAt: now },
        });
      }
      return { status: reason ? ('rejected' as const) : ('completed' as const), reason, number: data.number };
    });
  }

  async releaseNumber(input: { number: string; carrierRef: string }) {
    // The sandbox's id for a number is the number itself.
    if (input.carrierRef !== input.number) throw new CarrierRefused(`${input.carrierRef} is not the carrier's id for ${input.number}; nothing was released.`);
    await this.prisma.sandboxCarrierObject.deleteMany({ where: { type: 'number', id: input.number } });
  }
}
