/**
 * Loads the demo data set into an empty database: one interactive transaction, createMany per
 * model in foreign-key order (visits before blocks: the database refuses a block over a job). A database that already has any business is left untouched.
 */
import { Prisma, type PrismaClient } from '../generated/prisma/client.js';
import { DEMO_PASSWORD, generateDemoData } from './generate.js';
import { hashPassword } from '../auth/password.js';

/**
 * Thousands of rows in one statement with one parameter: PostgreSQL reads them from a JSON array
 * (json_populate_recordset), which on the embedded database is several times faster than
 * createMany's bound parameters. Columns left out take their defaults.
 */
async function insertRows(tx: Prisma.TransactionClient, table: string, rows: readonly object[]): Promise<void> {
  if (rows.length === 0) return;
  const columns = Object.keys(rows[0]!).map((c) => `"${c}"`).join(', ');
  await tx.$executeRawUnsafe(`INSERT INTO "${table}" (${columns}) SELECT ${columns} FROM json_populate_recordset(NULL::"${table}", $1::json)`, JSON.stringify(rows));
}

export async function seedDemoData(
  prisma: PrismaClient,
  opts: { now: number; seed?: number },
): Promise<{ seeded: boolean; businesses: number }> {
  if ((await prisma.business.findFirst({ select: { id: true } })) !== null) return { seeded: false, businesses: 0 };

  const data = generateDemoData({ now: opts.now, seed: opts.seed });
  // Every demo owner gets the same hash of the demo password: hashing is deliberately slow,
  // and one shared salt is acceptable for demo accounts whose password is public anyway.
  const passwordHash = await hashPassword(DEMO_PASSWORD);
  const owners = data.owners.map((owner) => ({ ...owner, passwordHash }));

  try {
    return await prisma.$transaction(
      async (tx) => {
        if ((await tx.business.findFirst({ select: { id: true } })) !== null) return { seeded: false, businesses: 0 };
        await tx.owner.createMany({ data: owners });
        await tx.business.createMany({ data: data.businesses });
        await tx.weeklyHours.createMany({ data: data.weeklyHours });
        await tx.serviceZip.createMany({ data: data.serviceZips });
        await insertRows(tx, 'Lead', data.leads);
        await insertRows(tx, 'Booking', data.bookings);
        await insertRows(tx, 'BookingVisit', data.bookingVisits);
        await insertRows(tx, 'OwnJob', data.ownJobs);
        await insertRows(tx, 'Block', data.blocks);
        await insertRows(tx, 'Event', data.events);
        await tx.serviceMenu.createMany({ data: data.serviceMenus });
        await tx.menuService.createMany({ data: data.menuServices });
        await tx.menuAddOn.createMany({ data: data.menuAddOns });
        await tx.menuScent.createMany({ data: data.menuScents });
        await tx.staffMember.createMany({ data: data.staffMembers });
        await tx.staffHours.createMany({ data: data.staffHours });
        await tx.staffTimeOff.createMany({ data: data.staffTimeOff });
        await tx.receptionist.createMany({ data: data.receptionists });
        await tx.receptionistSource.createMany({ data: data.receptionistSources });
        await tx.frontDesk.createMany({ data: data.frontDesks });
        await tx.appointmentService.createMany({ data: data.appointmentServices });
        await tx.appointmentHours.createMany({ data: data.appointmentHours });
        await tx.sandboxPaymentObject.createMany({ data: [...data.sandboxPaymentObjects, ...data.planPaymentObjects] });
        await tx.paymentAccount.createMany({ data: data.paymentAccounts });
        await tx.receptionistBilling.createMany({ data: data.receptionistBillings });
        await tx.receptionistUsage.createMany({ data: data.receptionistUsages });
        await tx.receptionistNumber.createMany({ data: data.receptionistNumbers });
        await tx.sandboxCarrierObject.createMany({ data: data.sandboxCarrierObjects });
        return { seeded: true, businesses: data.businesses.length };
      },
      { timeout: 60_000 },
    );
  } catch (err) {
    // Another instance seeding at the same moment wins on the unique ids; ours rolls back.
    if (err instanceof Prisma.PrismaClientKnownRequestError && err.code === 'P2002') return { seeded: false, businesses: 0 };
    throw err;
  }
}
