import { Link } from 'react-router';
import { PageMeta } from '../../lib/page-meta.tsx';
import { shop } from '../../lib/shop.ts';
import styles from './terms.module.css';

/**
 * Returns and cancellations (docs/rules.md#pages-and-routes): the shopper's right to cancel a
 * distance sale as the Consumer Contracts Regulations 2013 give it, their rights over faulty goods
 * under the Consumer Rights Act 2015, and the model cancellation form (CCR Schedule 3), in the
 * shop's own words. The law over the spec's seven days and restocking fee (DESIGN.md section 9).
 */
export default function ReturnsPage() {
  const name = shop.name;
  return (
    <div className={`container page ${styles.terms}`}>
      <PageMeta
        title="Returns And Cancellations"
        description={`Your right to cancel an order from ${name} within 14 days, how to return goods, how and when you are refunded, and the model cancellation form.`}
        canonicalPath="/returns"
      />
      <h1 className="page-title">Returns and Cancellations</h1>
      <p>
        If you change your mind about something you bought from {name}, the law gives you time to cancel, and we are
        happy to take it back. This page says how. It is part of our{' '}
        <Link to="/termsandconditions">terms and conditions</Link>.
      </p>

      <h2>Your right to cancel</h2>
      <p>
        You may cancel your order, or any part of it, without giving a reason, within 14 days starting the day after you
        receive the goods. If your order comes in several parcels, the 14 days start the day after the last one arrives;
        if you collect it from our shop, the day after you collect it. You may also cancel before we dispatch your
        order, at any time.
      </p>

      <h2>How to cancel</h2>
      <p>
        Tell us clearly that you wish to cancel: e-mail us at <a href={`mailto:${shop.email}`}>{shop.email}</a>, write
        to us at the address below, or send us the model cancellation form at the end of this page (you do not have to
        use it). Please give your order number. We confirm your cancellation by e-mail and give you a returns
        authorisation number to put on the parcel, so we know whose it is when it arrives.
      </p>

      <h2>Sending goods back</h2>
      <p>
        Please send the goods back to us within 14 days of telling us you are cancelling, in their original packaging if
        you still have it. You pay the postage to return them, unless they are faulty, damaged or not what you ordered;
        we recommend a tracked service, as the parcel is yours until it reaches us.
      </p>

      <h2>Your refund</h2>
      <p>
        We refund you within 14 days of receiving the goods back, or of your showing us that you have sent them,
        whichever comes first; if we had not dispatched your order, within 14 days of your cancelling it. The refund
        includes the cost of standard delivery to you (if you chose a faster delivery, the difference is not refunded),
        and goes back to the card or PayPal account you paid with. There is no restocking fee.
      </p>
      <p>
        You may handle the goods as you would in a shop, to see what they are and how they sound. If an instrument has
        been handled more than that (for example played until its skin is marked, or its strings cut), we may reduce the
        refund by the loss in its value; we tell you the amount and why.
      </p>

      <h2>What cannot be cancelled</h2>
      <p>
        Goods made to your own specification or clearly personalised, such as an instrument made to order or tuned or
        altered at your request, cannot be returned because you changed your mind; their product pages say so before you
        buy. Nor can reeds and mouthpieces sealed for hygiene once their seal has been opened.
      </p>

      <h2>Faulty, damaged or wrong goods</h2>
      <p>
        Whatever you bought, if it is faulty, was damaged on its way to you, or is not what you ordered, tell us as soon
        as you can. Under the Consumer Rights Act 2015 you may reject faulty goods within 30 days of receiving them for
        a full refund, including what you paid to send them back; after that we repair or replace them, or refund you if
        we cannot. Photos of any damage help us settle a claim with the carrier quickly.
      </p>

      <h2>Model cancellation form</h2>
      <p>Complete and return this form only if you wish to cancel your order.</p>
      <div className={styles.form}>
        <p>
          To {name}, {shop.address}, {shop.email}:
        </p>
        <p>I/We hereby give notice that I/We cancel my/our contract of sale of the following goods:</p>
        <p>Ordered on / received on:</p>
        <p>Order number:</p>
        <p>Name of consumer(s):</p>
        <p>Address of consumer(s):</p>
        <p>Signature of consumer(s) (only if this form is sent on paper):</p>
        <p>Date:</p>
      </div>
      <p>
        Our address: <span className={styles.address}>{shop.address}</span>
      </p>
    </div>
  );
}
