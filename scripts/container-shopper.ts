/**
 * A shopper for the container image's CI step (.ci/container), talking to the shop over HTTP as
 * the shop's pages do:
 *
 *   node scripts/container-shopper.ts ready <base-url>          waits until GET /readyz answers 200
 *   node scripts/container-shopper.ts buy <base-url>            buys one item, paying in the local
 *                                                               PayPal sandbox; prints `<number> <code>`
 *   node scripts/container-shopper.ts check <base-url> <code>   the order is there, and paid
 *
 * Each exits non-zero, saying why, when the shop does not do what a shopper expects.
 */
const [command, base, orderCode] = process.argv.slice(2);

function fail(message: string): never {
  console.error(`container-shopper: ${message}`);
  process.exit(1);
}

/** The browser's cookie jar, as far as this shop needs one: the CSRF cookie it echoes. */
const cookies = new Map<string, string>();

async function call(path: string, init: { body?: unknown; form?: Record<string, string> } = {}) {
  const headers: Record<string, string> = {
    cookie: [...cookies].map(([name, value]) => `${name}=${value}`).join('; '),
  };
  let body: string | undefined;
  if (init.form) {
    headers['content-type'] = 'application/x-www-form-urlencoded';
    body = new URLSearchParams(init.form).toString();
  } else if (init.body !== undefined) {
    headers['content-type'] = 'application/json';
    body = JSON.stringify(init.body);
  }
  const token = cookies.get('XSRF-TOKEN');
  if (body !== undefined && token) headers['x-xsrf-token'] = token;
  const answer = await fetch(`${base}${path}`, {
    method: body === undefined ? 'GET' : 'POST',
    headers,
    body,
    redirect: 'manual',
  });
  for (const cookie of answer.headers.getSetCookie()) {
    const [pair = ''] = cookie.split(';');
    const at = pair.indexOf('=');
    cookies.set(pair.slice(0, at), pair.slice(at + 1));
  }
  const text = await answer.text();
  return { status: answer.status, text, location: answer.headers.get('location') };
}

async function json<T>(path: string, init: Parameters<typeof call>[1] = {}): Promise<T> {
  const answer = await call(path, init);
  if (answer.status !== 200) fail(`${path} answered ${answer.status}: ${answer.text.slice(0, 300)}`);
  return JSON.parse(answer.text) as T;
}

async function ready(): Promise<void> {
  const deadline = Date.now() + 60_000;
  while (Date.now() < deadline) {
    try {
      if ((await fetch(`${base}/readyz`)).ok) return;
    } catch {
      // Not listening yet.
    }
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  fail(`${base}/readyz did not answer 200 within 60 s`);
}

interface Stock {
  productStockId: number;
  stock: number;
  price: number;
}

async function buy(): Promise<void> {
  // The page asks for a CSRF token before its first call that changes something.
  await call('/api/csrf-token');
  if (!cookies.has('XSRF-TOKEN')) fail('GET /api/csrf-token set no XSRF-TOKEN cookie');
  const found = await json<{ results: Array<{ urlKey: string }> }>('/api/search', {
    body: { title: 'tabla', pageNumber: 1 },
  });
  let chosen: Stock | undefined;
  for (const { urlKey } of found.results) {
    const product = await json<{ title: string; stocks: Stock[] }>(`/api/products/${encodeURIComponent(urlKey)}`);
    chosen = product.stocks.find((stock) => stock.stock > 0);
    if (chosen) {
      await serverDrawn(`/product/${encodeURIComponent(urlKey)}`, product.title);
      break;
    }
  }
  if (!chosen) fail('no tabla in stock in the demo catalogue');
  const countries = await json<Array<{ id: number; name: string }>>('/api/countries');
  const uk = countries.find((country) => country.name === 'United Kingdom') ?? fail('no United Kingdom');
  const [delivery] = await json<Array<{ id: number }>>(`/api/delivery-methods/${uk.id}/${chosen.price}`);
  const [title] = await json<Array<{ id: number }>>('/api/titles');
  if (!delivery || !title) fail('no delivery method or title to choose');
  const address = { line1: '12 Market Street', postcode: 'B70 7NJ', townCity: 'West Bromwich', countryId: uk.id };
  const committed = await json<{ ok: boolean; orderNumber?: number; orderCode?: string }>('/api/basket', {
    body: {
      items: [{ productStockId: chosen.productStockId, requestedQty: 1 }],
      guest: {
        titleId: title.id,
        firstname: 'Container',
        lastname: 'Shopper',
        email: 'container.shopper@example.com',
        contactNumber: '0121 496 0000',
      },
      billingAddress: address,
      deliveryAddress: address,
      deliveryMethodRateId: delivery.id,
    },
  });
  if (!committed.ok || !committed.orderCode) fail(`the basket was not committed: ${JSON.stringify(committed)}`);
  const code = committed.orderCode;
  // The handoff to PayPal Checkout (the local sandbox), the shopper pressing Pay there, and back.
  const handoff = await json<{ kind: string; url?: string }>(`/api/payment-handoff/${code}`);
  if (handoff.kind !== 'redirect' || !handoff.url) fail(`expected a redirect to PayPal: ${JSON.stringify(handoff)}`);
  const approve = new URL(handoff.url);
  const token = approve.searchParams.get('token') ?? fail(`no token in ${handoff.url}`);
  const paid = await call(approve.pathname, { form: { token, action: 'pay' } });
  if (paid.status !== 303 || !paid.location) fail(`the sandbox's Pay answered ${paid.status}: ${paid.text}`);
  const back = new URL(paid.location);
  const returned = await call(`${back.pathname}${back.search}`);
  if (returned.status !== 303) fail(`the return from PayPal answered ${returned.status}: ${returned.text}`);
  await check(code);
  console.log(`${committed.orderNumber} ${code}`);
}

/** The page comes drawn on the server (dist/ssr, ADR 0021), with the product in it, not an empty shell. */
async function serverDrawn(path: string, title: string): Promise<void> {
  const page = await call(path);
  const escaped = title.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;');
  if (page.status !== 200 || !page.text.includes('<div id="root"><') || !page.text.includes(escaped)) {
    fail(`${path} answered ${page.status} without the product drawn on the server`);
  }
}

async function check(code: string): Promise<void> {
  const order = await json<{ orderNumber: number; status: string }>(`/api/order-status/${code}`);
  if (order.status !== 'paid') fail(`order ${order.orderNumber} is ${order.status}, not paid`);
}

if (!base || !['ready', 'buy', 'check'].includes(command ?? '') || (command === 'check' && !orderCode)) {
  fail('usage: node scripts/container-shopper.ts ready|buy|check <base-url> [order-code]');
}
if (command === 'ready') await ready();
else if (command === 'buy') await buy();
else await check(orderCode as string);
