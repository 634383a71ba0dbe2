import { useState } from 'react';
import { Link } from 'react-router';
import type { ContactRequest } from '../../../contract/contact.ts';
import { limitMessage } from '../../lib/api.ts';
import { PageMeta } from '../../lib/page-meta.tsx';
import { shop, telHref } from '../../lib/shop.ts';
import { useShowMessage } from '../../ui/message-modal/message-modal.tsx';
import { ShopMap } from '../../ui/shop-map/shop-map.tsx';
import { sendContactMessage } from './api/send-contact-message.ts';
import { ContactForm } from './contact-form.tsx';
import styles from './contact.module.css';

/** Contact Us (docs/rules.md#pages-and-routes): the form until a message is processed, then a thank-you. */
export default function ContactPage() {
  const [processed, setProcessed] = useState(false);
  const showMessage = useShowMessage();

  async function send(request: ContactRequest): Promise<boolean> {
    try {
      await sendContactMessage(request);
      setProcessed(true);
      return true;
    } catch (error) {
      showMessage({
        type: 'error',
        title: 'Your message was not sent',
        text: limitMessage(error) ?? `Please try again, or call us on ${shop.phone}.`,
      });
      return false;
    }
  }

  return (
    <div className="container page">
      <PageMeta title="Contact Us" canonicalPath="/contact" />
      <h1 className="page-title">CONTACT US</h1>
      <p className={styles.lead}>How can we help you?</p>
      <div className={styles.grid}>
        <div>
          <ShopMap />
          <h2>Need some help?</h2>
          <p>Get in touch and we will work out a solution.</p>
          <address className={styles.address}>
            <strong>{shop.name}</strong>
            <br />
            {shop.address}
            <br />
            Phone: <a href={telHref(shop.phone)}>{shop.phone}</a>
            <br />
            Email: <a href={`mailto:${shop.email}`}>{shop.email}</a>
            <br />
            Company No. {shop.companyNumber}
          </address>
        </div>
        <div className={styles.formPanel}>
          {processed ? (
            <div role="status">
              <h2>Thank you for your message</h2>
              <p>We have received it and will reply as soon as we can, usually within one working day.</p>
              <Link to="/" className="button">
                HOME
              </Link>
            </div>
          ) : (
            <>
              <h2>Send us a message</h2>
              <ContactForm onSend={send} />
            </>
          )}
        </div>
      </div>
    </div>
  );
}
