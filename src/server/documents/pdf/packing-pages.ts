import bwipjs from 'bwip-js';
import type { PackingSlip } from '../../../contract/documents.ts';
import { dayOf } from './accounting-pages.ts';
import type { PdfWriter } from './pdf-layout.ts';

/**
 * A packing slip's page (docs/back-office.md#packing-slips): the order number as text and as a
 * Code 128 barcode a scanner reads, where the parcel goes and how, and the lines to pack with
 * their pictures, sizes and quantities.
 */
export async function drawPackingSlip(
  pdf: PdfWriter,
  slip: PackingSlip,
  pictures: ReadonlyMap<number, Uint8Array>,
): Promise<void> {
  pdf.startDocument(`Packing slip for order ${slip.orderNumber}`);
  pdf.heading(`Packing slip: order ${slip.orderNumber}`);
  const barcode = await bwipjs.toBuffer({ bcid: 'code128', text: String(slip.orderNumber), scale: 3, height: 12 });
  pdf.image(barcode, { width: 150, height: 45, alt: `Barcode of order number ${slip.orderNumber}` });
  pdf.facts([
    ['Order number', String(slip.orderNumber)],
    ['Placed', dayOf(slip.placedAt)],
    ['Delivery', slip.deliveryMethod],
  ]);
  pdf.columns([
    slip.collected
      ? { title: 'To collect at the shop', lines: [slip.customerName] }
      : { title: 'Deliver to', lines: slip.deliveryAddress },
    { title: 'Contact', lines: [slip.customerName, slip.contactNumber] },
  ]);
  pdf.picturedRows(
    slip.lines.map((line) => {
      const picture = pictures.get(line.productId);
      return {
        ...(picture ? { picture } : {}),
        alt: line.title,
        text: `${line.title}\nSize: ${line.size}`,
        quantity: String(line.quantity),
      };
    }),
  );
  if (slip.lines.length === 0) pdf.paragraph(['Nothing left to pack: every unit has been refunded.']);
}
