// npm run manage-code -- <business slug>: prints a fresh Manage with AI code, as the dashboard
// would show it. Works while the server runs on the embedded database: openDatabase then shares
// the server's PGlite socket in DATA_DIR instead of opening the files a second time.
// The code goes to stdout only; everything else goes to stderr.
import { loadConfig } from '../src/config.js';
import { Clock } from '../src/clock.js';
import { openDatabase } from '../src/db/database.js';
import { createManageCode } from '../src/auth/manage-codes.js';

const slug = process.argv[2]?.trim();
if (!slug) {
  process.stderr.write('Usage: npm run manage-code -- <business slug>\n');
  process.exit(1);
}

const config = loadConfig();
const db = await openDatabase({ url: config.databaseUrl, poolSize: config.databasePoolSize, dataDir: config.dataDir, pgliteSharedBuffers: config.pgliteSharedBuffers, shareRunning: true });
try {
  const business = await db.prisma.business.findUnique({ where: { slug }, select: { id: true, name: true } });
  if (!business) {
    process.stderr.write(`No business has the slug "${slug}". The slug is the business's pro_id, e.g. from find_cleaners.\n`);
    process.exitCode = 1;
  } else {
    const { code, expiresAt } = await createManageCode({ prisma: db.prisma, clock: new Clock(config.now), config }, business.id);
    process.stderr.write(`Manage with AI code for ${business.name}; works once, until ${expiresAt.toISOString()}:\n`);
    process.stdout.write(`${code}\n`);
  }
} catch (err) {
  // A data folder the server never started on has no tables yet.
  const missing = (err as { code?: string }).code === 'P2021';
  process.stderr.write(missing ? 'The database has no tables yet: start the server once (npm start) to create them.\n' : `${String(err)}\n`);
  process.exitCode = 1;
} finally {
  await db.close();
}
