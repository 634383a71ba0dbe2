import {
  cancellationEmailToShopper,
  cancellationUndoneToShopper,
} from '../../src/server/cancellation/cancellation-emails.ts';
import type { MailMessage } from '../../src/server/mail/mailer.ts';
import { newOrderLinkEmail } from '../../src/server/order-page/order-link-email.ts';
import { returnAuthorisedEmail } from '../../src/server/returns/return-emails.ts';
import {
  dispatchEmail,
  orderConfirmationEmail,
  paymentFailedEmail,
  readyForCollectionEmail,
  refundEmail,
} from '../../src/server/payments/order-emails.ts';

/** One message of every template, with the data a shop would give it, for the template tests. */

export const sampleOrder = {
  order_number: 100042,
  order_code: 'AAAAAAAAAAAAAAAAAAAAAA',
  firstname: 'Asha',
  lastname: 'Kaur',
  email: 'asha@example.com',
  items_total: 1400,
  discount_amount: 0,
  delivery_price: 495,
  delivery_method_name: 'Standard delivery',
  total_vat: 316,
  total_including_delivery: 1895,
  transaction_id: '{7E3B1C2D-0000-4A5B-9C8D-1234567890AB}',
  billing_line1: '12 Market Street',
  billing_line2: '',
  billing_town_city: 'West Bromwich',
  billing_postcode: 'B70 7NJ',
  delivery_line1: '12 Market Street',
  delivery_line2: '',
  delivery_town_city: 'West Bromwich',
  delivery_postcode: 'B70 7NJ',
  delivery_kind: 'delivery' as const,
  link_version: 1,
  created_at: '2026-11-27T09:58:00.000Z',
  paid_at: '2026-11-27T10:00:00.000Z',
};

export const sampleLines = [
  {
    title: 'Tabla set',
    size_name: 'Standard',
    quantity: 1,
    line_total: 1400,
    photoPath: '/images/photos/0123456789abcdef0123456789abcdef-160.webp',
  },
];

/** Every template, named, as a message; a paragraphs message too (the generic template). */
export function sampleMails(publicUrl: string): Array<{ name: string; message: MailMessage }> {
  return [
    {
      name: 'order confirmation',
      message: orderConfirmationEmail(sampleOrder, sampleLines, `${publicUrl}/documents/invoice/x`),
    },
    {
      name: 'order confirmation, collected',
      message: orderConfirmationEmail(
        {
          ...sampleOrder,
          delivery_kind: 'collection',
          delivery_method_name: 'Collect from the Leicester shop',
          delivery_price: 0,
        },
        sampleLines,
      ),
    },
    { name: 'payment failed', message: paymentFailedEmail(sampleOrder, publicUrl) },
    {
      name: 'dispatch',
      message: dispatchEmail(sampleOrder, {
        sent: [{ title: 'Tabla set', sizeName: 'Standard', quantity: 1 }],
        toCome: [{ title: 'Harmonium', sizeName: 'Scale changer', quantity: 1 }],
        parcels: [
          { carrier: 'Royal Mail', trackingNumber: 'AB123456789GB', trackingUrl: `${publicUrl}/track/AB123456789GB` },
        ],
        untrackedService: null,
      }),
    },
    {
      name: 'ready for collection',
      message: readyForCollectionEmail({ ...sampleOrder, delivery_method_name: 'Collect from the Leicester shop' }),
    },
    {
      name: 'refund',
      message: refundEmail(sampleOrder, {
        amount: 1895,
        via: 'card',
        creditNoteNumber: 7,
      }),
    },
    {
      name: 'refund for a cancellation',
      message: refundEmail(sampleOrder, {
        amount: 1895,
        via: 'paypal',
        creditNoteNumber: 8,
        reason: 'Order cancelled by the customer',
        returned: [{ title: 'Tabla set', sizeName: 'Standard', quantity: 1 }],
      }),
    },
    {
      name: 'cancellation, refund pending',
      message: cancellationEmailToShopper(sampleOrder, {
        orderNumber: sampleOrder.order_number,
        whole: true,
        cancelled: [{ title: 'Tabla set', sizeName: 'Standard', quantity: 1 }],
        amount: 1895,
        refundsTo: 'to the card you paid with',
        pending: true,
      }),
    },
    {
      name: 'cancellation undone',
      message: cancellationUndoneToShopper(sampleOrder, {
        orderNumber: sampleOrder.order_number,
        units: [{ title: 'Tabla set', sizeName: 'Standard', quantity: 1 }],
        amount: 1895,
      }),
    },
    {
      name: 'new order link',
      message: newOrderLinkEmail(sampleOrder, sampleOrder.link_version + 1),
    },
    {
      name: 'return authorised',
      message: returnAuthorisedEmail(
        {
          email: sampleOrder.email,
          firstname: sampleOrder.firstname,
          orderNumber: sampleOrder.order_number,
          linkVersion: sampleOrder.link_version,
          raNumber: 'RA-100042-1',
          items: ['1 × Tabla set (Standard)'],
        },
        'Raag Instruments, Unit 14, Queens Square Shopping Precinct, West Bromwich, B70 7NJ',
        'damaged_in_transit',
      ),
    },
    {
      name: 'notice',
      message: {
        to: 'asha@example.com',
        subject: 'Reset your password',
        template: {
          name: 'notice',
          data: {
            heading: 'Choose a new password',
            greeting: 'Dear Asha Kaur,',
            paragraphs: ['To choose a new password for your account, use the button below.'],
            buttons: [{ label: 'Choose a new password', url: `${publicUrl}/reset-password/abc` }],
            after: ['The link works once and for 1 hour.'],
          },
        },
      },
    },
    {
      name: 'paragraphs',
      message: {
        to: 'asha@example.com',
        subject: 'Your order 100042 is cancelled',
        paragraphs: [
          'Dear Asha Kaur,',
          `We have cancelled your order. See ${publicUrl}/order/100042.x`,
          'Line one\nLine two',
        ],
      },
    },
  ];
}
