import { messages } from '../../src/contract/messages.ts';
import { readOutbox } from '../helpers/outbox.ts';
import {
  CUSTOMER_PASSWORD,
  expect,
  expectNoAxeViolations,
  linkFrom,
  productWithSizes,
  register,
  saveAccountAddress,
  signUp,
  test,
} from './fixtures.ts';
import { outboxFor } from './outbox-path.ts';

const PASSWORD = CUSTOMER_PASSWORD;

test.describe('a new customer', () => {
  // The wrong password is answered 401, which the browser reports.
  test.use({ allowConsoleErrors: [/status of 401/] });
  test('registers, opens the link from the outbox, signs in, and sees the name in the top bar', async ({ page }) => {
    const email = `arjun.${Date.now()}@example.com`;
    await page.goto('/register');
    await expectNoAxeViolations(page);
    await page.getByRole('button', { name: 'REGISTER' }).click();
    for (const message of [
      'Please select your Title',
      'Please provide your Email Address',
      'Please provide your First Name',
      'Please provide your Last Name',
      'Please enter a Password',
      'Please confirm your Password',
    ]) {
      await expect(page.getByText(message, { exact: true })).toBeVisible();
    }
    await register(page, email);
    await page.goto(await linkFrom(page, email, 'verify-account'));
    await expect(page.getByRole('heading', { name: 'Account Activated' })).toBeVisible();
    await expectNoAxeViolations(page);

    await page.goto('/login');
    await page.getByLabel('Email').fill(email);
    await page.getByLabel('Password').fill('not-the-password');
    await page.getByRole('button', { name: 'LOG IN' }).click();
    await expect(page.getByText('Login failed, please check credentials and try again.')).toBeVisible();
    await expectNoAxeViolations(page);
    await page.getByLabel('Password').fill(PASSWORD);
    await page.getByRole('button', { name: 'LOG IN' }).click();
    await expect(page.getByText('You are signed in.')).toBeVisible();
    const topBar = page.getByRole('navigation', { name: 'Contact and account' });
    await expect(topBar.getByRole('link', { name: 'ARJUN mehta' })).toBeVisible();
    await page.reload();
    await expect(topBar.getByRole('link', { name: 'ARJUN mehta' })).toBeVisible();
  });
});

test('registering an address twice is answered as the first: check your e-mail', async ({ page }) => {
  const email = `twice.${Date.now()}@example.com`;
  await register(page, email);
  await page.goto('/register');
  await page.getByLabel('Title').selectOption({ label: 'MS' });
  await page.getByLabel('Email').fill(email);
  await page.getByLabel('First Name').fill('A');
  await page.getByLabel('Last Name').fill('B');
  await page.getByLabel('Password (at least 10 characters)').fill('short');
  await page.getByLabel('Confirm Password').fill('short');
  await page.getByRole('button', { name: 'REGISTER' }).click();
  await expect(page.getByText('Invalid password, please provide a stronger password.')).toBeVisible();
  await page.getByLabel('Password (at least 10 characters)').fill(PASSWORD);
  await page.getByLabel('Confirm Password').fill(PASSWORD);
  await page.getByRole('button', { name: 'REGISTER' }).click();
  // Not "in use", which told anyone the address has an account; its owner is e-mailed instead.
  await expect(page.getByRole('status')).toContainText(messages.registration.complete);
  const outbox = outboxFor(Number(new URL(page.url()).port));
  await expect
    .poll(() => readOutbox(outbox).some((m) => m.to === email && /tried to register/.test(m.subject)))
    .toBe(true);
});

test('forgotten password, end to end', async ({ page }) => {
  const email = `forgot.${Date.now()}@example.com`;
  await register(page, email);
  await page.goto('/forgotpassword');
  await expectNoAxeViolations(page);
  await page.getByLabel('Email').fill(email);
  await page.getByRole('button', { name: 'SEND LINK' }).click();
  await expect(page.getByText(/If an account uses that address/)).toBeVisible();
  await page.goto(await linkFrom(page, email, 'reset-password'));
  const newPassword = 'Santoor-Strings-2027';
  await page.getByLabel('New Password (at least 10 characters)').fill(newPassword);
  await page.getByLabel('Confirm Password').fill(newPassword);
  await page.getByRole('button', { name: 'SAVE PASSWORD' }).click();
  await expect(page.getByText('Your password has been changed.')).toBeVisible();
  await page.getByRole('link', { name: 'LOGIN', exact: true }).click();
  await page.getByLabel('Email').fill(email);
  await page.getByLabel('Password').fill(newPassword);
  await page.getByRole('button', { name: 'LOG IN' }).click();
  await expect(
    page.getByRole('navigation', { name: 'Contact and account' }).getByRole('link', { name: 'ARJUN mehta' }),
  ).toBeVisible();
});

test.describe('a used or unknown activation link', () => {
  test.use({ allowConsoleErrors: [/status of 400/] });
  test('goes home', async ({ page }) => {
    await page.goto('/verify-account/not-a-real-token');
    await expect(page).toHaveURL(/\/home$/);
  });
});

test('a customer saves addresses in My Account, checks out with the saved address, and sees the order', async ({
  page,
}) => {
  await signUp(page, `saved.${Date.now()}@example.com`);
  await page.goto('/account-home');
  await expect(page.getByRole('heading', { name: 'My Account' })).toBeVisible();
  await saveAccountAddress(page);
  await page.getByRole('button', { name: 'Close' }).click();
  await expectNoAxeViolations(page);
  await page.reload();
  await expect(page.getByRole('region', { name: 'Delivery Address' }).getByLabel('Address Line 1')).toHaveValue(
    '3 Bandstand Row',
  );

  const product = await productWithSizes(page);
  await page.goto(`/products/${product.urlKey}`);
  await page.getByRole('button', { name: 'ADD TO BASKET' }).click();
  await page.goto('/checkout');
  await expect(page).toHaveURL(/\/checkout-details$/);
  await expect(page.getByLabel('First Name')).toHaveValue('Arjun');
  await expect(page.getByTestId('saved-billing')).toContainText('3 Bandstand Row');
  await page.getByRole('button', { name: 'NEXT' }).click();
  await expect(page).toHaveURL(/\/checkout-delivery$/);
  await expect(page.getByTestId('saved-delivery')).toContainText('3 Bandstand Row, Soho Road, Birmingham, B21 9RY');
  await page.getByRole('button', { name: 'Deliver to this address' }).click();
  await page.getByLabel(/Express delivery/).check();
  await page.getByRole('button', { name: 'Continue' }).click();
  await expect(page).toHaveURL(/\/checkout-review$/);
  await page.getByRole('button', { name: /SECURE CHECKOUT/ }).click();
  await page.getByRole('button', { name: /^Pay £/ }).click();
  await expect(page.getByRole('heading', { name: 'ORDER COMPLETE' })).toBeVisible();
  const orderNumber = await page.getByTestId('order-number').innerText();

  await page.goto('/account-home#orders');
  await expect(page.getByRole('heading', { name: `Order ${orderNumber}: Paid` })).toBeVisible();
});

test('My Account: "Use Billing Address" delivers to the billing address, and unticking brings the saved delivery address back', async ({
  page,
}) => {
  test.slow();
  await signUp(page, `both.addresses.${Date.now()}@example.com`);
  await page.goto('/account-home');
  // Delivered to a shop, billed at home: two different addresses saved.
  await saveAccountAddress(page);
  await page.getByRole('button', { name: 'Close' }).click();
  const delivery = page.getByRole('region', { name: 'Delivery Address' });
  const useBilling = delivery.getByLabel('Use Billing Address');
  await useBilling.uncheck();
  await delivery.getByLabel('Address Line 1').fill('Unit 7, Soho Road Precinct');
  await delivery.getByLabel('Address Line 2').fill('Handsworth');
  await delivery.getByLabel('Post Code').fill('B21 9SN');
  await page.getByRole('button', { name: 'Save Changes' }).click();
  await expect(page.getByRole('dialog').getByText('Your details have been saved.')).toBeVisible();
  await page.getByRole('button', { name: 'Close' }).click();
  await page.reload();
  await expect(useBilling).not.toBeChecked();

  // Ticked, the delivery fields give way to the billing address; unticked, they are as saved.
  await useBilling.check();
  await expect(delivery.getByLabel('Address Line 1')).toBeHidden();
  await expectNoAxeViolations(page);
  await useBilling.uncheck();
  await expect(delivery.getByLabel('Address Line 1')).toHaveValue('Unit 7, Soho Road Precinct');
  await expect(delivery.getByLabel('Post Code')).toHaveValue('B21 9SN');
  await page.getByRole('button', { name: 'Save Changes' }).click();
  await expect(page.getByRole('dialog').getByText('Your details have been saved.')).toBeVisible();
  await page.getByRole('button', { name: 'Close' }).click();
  await page.reload();
  await expect(delivery.getByLabel('Address Line 1')).toHaveValue('Unit 7, Soho Road Precinct');
  await expect(page.getByRole('region', { name: 'Billing Address' }).getByLabel('Address Line 1')).toHaveValue(
    '3 Bandstand Row',
  );

  // Saved ticked: the delivery address is the billing address, and the box shows it.
  await useBilling.check();
  await page.getByRole('button', { name: 'Save Changes' }).click();
  await expect(page.getByRole('dialog').getByText('Your details have been saved.')).toBeVisible();
  await page.getByRole('button', { name: 'Close' }).click();
  await page.reload();
  await expect(useBilling).toBeChecked();
  await useBilling.uncheck();
  await expect(delivery.getByLabel('Address Line 1')).toHaveValue('3 Bandstand Row');
  await expect(delivery.getByLabel('Post Code')).toHaveValue('B21 9RY');
});

test('the contact form sends, thanks the sender, and both e-mails are in the outbox', async ({ page }) => {
  await page.goto('/contact');
  const sender = `enquiry.${Date.now()}@example.com`;
  await page.getByLabel('Email Address').fill(sender);
  await page.getByLabel('Name', { exact: true }).fill('Meera');
  await page.getByLabel('Contact Number').fill('0121 496 0400');
  await page.getByLabel('Message', { exact: true }).fill('Do you tune tablas in the shop?');
  await page.getByRole('button', { name: 'SEND' }).click();
  await expect(page.getByRole('heading', { name: 'Thank you for your message' })).toBeVisible();
  await expectNoAxeViolations(page);
  const outbox = outboxFor(Number(new URL(page.url()).port));
  await expect
    .poll(() => readOutbox(outbox).some((m) => m.to === sender && m.subject.startsWith('We have your message - ')))
    .toBe(true);
  // The acknowledgement goes to whatever address was typed: it never repeats the sender's name.
  expect(readOutbox(outbox).some((m) => m.to === sender && m.raw.includes('Meera'))).toBe(false);
  expect(readOutbox(outbox).some((m) => m.subject === 'Enquiry from Meera')).toBe(true);
});
