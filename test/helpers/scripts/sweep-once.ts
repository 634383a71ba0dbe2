import { openDatabase } from '../../../src/server/db/database.ts';
import { createOrdersService } from '../../../src/server/orders/orders.service.ts';

/** One reservation sweep in its own process, as one instance's timer runs it; prints the count. */
const db = openDatabase(process.env.DATABASE_URL ?? '');
const released = await createOrdersService(db.kysely, {
  reservationMinutes: 60,
}).releaseExpiredReservations();
console.log(`released ${released}`);
await db.destroy();
