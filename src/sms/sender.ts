/** Which number a business's texts leave from. */
import type { Tx } from '../db/transaction.js';

/**
 * The business's active receptionist number (E.164) when it texts customers from it
 * (update_front_desk texts_customers); null: its texts leave from the platform's number, and name it.
 */
export async function businessTextNumber(db: Tx, businessId: string): Promise<string | null> {
  const [row] = await db.$queryRaw<{ number: string }[]>`
    SELECT n."number" FROM "ReceptionistNumber" n JOIN "Business" b ON b."id" = n."businessId"
    WHERE n."businessId" = ${businessId} AND n."status" = 'active' AND b."textsCustomers"`;
  return row?.number ?? null;
}
