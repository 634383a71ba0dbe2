import { Link } from 'react-router';
import { PageMeta } from '../../lib/page-meta.tsx';
import { shop } from '../../lib/shop.ts';
import styles from './terms.module.css';

/**
 * Terms and Conditions (docs/rules.md#pages-and-routes), in the shop's own words, with the business
 * constants (delivery times and claims). Returns follow the law, not the spec's seven days and
 * restocking fee (DESIGN.md section 9; the returns page has them in full).
 */
export default function TermsPage() {
  const name = shop.name;
  return (
    <div className={`container page ${styles.terms}`}>
      <PageMeta
        title="Terms And Conditions"
        description={`The terms of buying from ${name}: ordering, delivery, returns and exchanges, privacy and the use of this website.`}
        canonicalPath="/termsandconditions"
      />
      <h1 className="page-title">Terms Of Use</h1>
      <p className={styles.tagline}>The small Print</p>
      <p>
        These terms apply to every order placed with {name} and to your use of this website. Please read them before you
        order. If you have a question about them, <Link to="/contact">contact us</Link> or return to the{' '}
        <Link to="/home">home page</Link>.
      </p>

      <h2>Changes to these terms</h2>
      <p>
        We may change these terms from time to time, for example when the law changes or we add a service. The terms
        that apply to your order are the ones shown on this page when you placed it.
      </p>

      <h2>Ordering</h2>
      <p>
        When you place an order you offer to buy the goods in your basket at the prices shown. We accept your order when
        payment has been taken and we send you an order confirmation by e-mail. Orders placed after 4 pm count from the
        next working day. If an item turns out to be unavailable after you order, we will tell you straight away and
        refund you in full for that item.
      </p>

      <h2>Delivery and returns</h2>
      <p>
        You may cancel your order without giving a reason within 14 days starting the day after you receive the goods,
        and before we dispatch it at any time. Tell us, and we give you a returns authorisation number to put on the
        parcel. You pay the postage for returns of goods that are not faulty, and we recommend a tracked service. We
        refund you within 14 days of receiving the goods back (or of your proof of sending them), including the cost of
        standard delivery to you, with no restocking fee. <Link to="/returns">Returns and cancellations</Link> sets out
        your rights in full, with the model cancellation form.
      </p>

      <h2>Exchanges</h2>
      <p>
        If you would like a different size, style or tuning, we will exchange unused goods returned in their original
        condition within the same 14 days, subject to availability. Any difference in price is charged or refunded.
      </p>

      <h2>Non-returnable items</h2>
      <p>
        Goods made to your own specification or clearly personalised, such as instruments made to order or tuned or
        altered at your request, cannot be returned because you changed your mind, and neither can reeds and mouthpieces
        sealed for hygiene once their seal is opened. This does not affect your rights over faulty goods.
      </p>

      <h2>Incorrect and damaged goods</h2>
      <p>
        Please check your order when it arrives, and tell us as soon as you can if an item is damaged, faulty or not
        what you ordered. You may reject faulty goods within 30 days of receiving them for a full refund, including your
        postage for sending them back (Consumer Rights Act 2015); after that we repair or replace them, subject to
        availability, or refund you if we cannot.
      </p>

      <h2>Delivery service</h2>
      <p>
        We aim to deliver within 3 working days of dispatch. In busy periods please allow 4 to 7 working days, and 2
        extra days around bank holidays and Christmas. Each item gets two delivery attempts; after that it is held for
        collection or returned to us. Claims for non-delivery must reach us within 14 days of shipment. Parcels lost in
        the post can take 30 to 45 days to come back to us, and we wait for that period before sending a replacement.
      </p>

      <h2>Export restrictions</h2>
      <p>
        We deliver to addresses in the United Kingdom. Some instruments contain materials, such as certain woods or
        skins, whose export is restricted; you are responsible for complying with any rules that apply if you take goods
        abroad.
      </p>

      <h2>Privacy notice</h2>
      <p>
        We use the personal details you give us (your name, addresses, e-mail and phone number) to process your order,
        deliver it and keep you informed about it. We do not sell your details. You can ask us for a copy of what we
        hold about you, or for it to be corrected or deleted, at any time.
      </p>

      <h2>Security</h2>
      <p>
        Payments are taken by our payment providers on their own secure pages; we never see or store your card details.
        Our website is served over an encrypted connection, and account passwords are stored only in a protected,
        irreversible form.
      </p>

      <h2>Conditions of use</h2>
      <p>
        You may use this website to browse and buy for your own, lawful purposes. You must not misuse it, attempt to
        gain unauthorised access to it, or interfere with its working.
      </p>

      <h2>Copyright</h2>
      <p>
        The text, pictures and design of this website belong to {name} unless stated otherwise. You may view and print
        pages for your own use, but not copy or republish them without our permission.
      </p>

      <h2>Intellectual property</h2>
      <p>
        The names, logos and brands shown on this website are the property of their owners. Nothing on this website
        grants you a licence to use them.
      </p>

      <h2>Indemnity</h2>
      <p>
        You agree to compensate us for any loss we suffer as a result of your breaking these terms or misusing this
        website.
      </p>

      <h2>Third-party links</h2>
      <p>
        This website links to other websites, such as maps and social networks. We are not responsible for their content
        or how they handle your information.
      </p>

      <h2>Limitation of liability</h2>
      <p>
        We are responsible for loss you suffer that is a foreseeable result of our breaking these terms or failing to
        use reasonable care. We are not responsible for loss that was not foreseeable, or for business losses. Nothing
        in these terms limits our liability where the law does not allow it to be limited.
      </p>

      <h2>Licence and site access</h2>
      <p>
        We grant you a limited licence to access and make personal use of this website. We may suspend or withdraw
        access to all or part of it at any time, for example for maintenance.
      </p>

      <h2>Product descriptions</h2>
      <p>
        Our instruments are hand-made, so each one varies a little in grain, colour and finish from the pictures, which
        are illustrations. We describe every product as accurately as we can; if it is not as described, you may return
        it as set out above.
      </p>

      <h2>Prices</h2>
      <p>
        Prices are in pounds sterling and include VAT at the current rate. Delivery charges are shown at checkout. If a
        price on this website is wrong, we will tell you before we accept your order, and you may then confirm it at the
        right price or cancel.
      </p>

      <h2>Data protection</h2>
      <p>
        We process personal data in line with the UK General Data Protection Regulation and the Data Protection Act
        2018. {name} is the data controller; our company number is {shop.companyNumber}.
      </p>

      <h2>Disclaimer</h2>
      <p>
        We do our best to keep this website accurate and available, but we cannot promise that it will always be free of
        errors or interruptions. These terms are governed by the law of England and Wales, and the courts of England and
        Wales have jurisdiction over any dispute.
      </p>
    </div>
  );
}
