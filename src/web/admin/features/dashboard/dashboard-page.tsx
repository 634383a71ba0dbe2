import { useQuery } from '@tanstack/react-query';
import { lazy, Suspense } from 'react';
import { Link } from 'react-router';
import type { Dashboard, Sales } from '../../../../contract/admin/dashboard.ts';
import { AdminPage } from '../../lib/admin-page.tsx';
import { formatDate, formatDateTime, formatPence } from '../../lib/format.ts';
import { ErrorAlert } from '../../ui/error-alert.tsx';
import { dashboardQueryOptions } from './api/dashboard.ts';
import { paymentStatusLabels } from '../../../../contract/order-status.ts';
import { TableBox } from '../../ui/table-box.tsx';
import { plural } from '../../../../contract/words.ts';

// uPlot is the back office's largest library: it loads with the chart, not with the app.
const SalesChart = lazy(() => import('./sales-chart.tsx'));

/**
 * The back office's first page: sales gross and net of refunds, the month's best sellers and
 * customers, what is waiting to be dispatched, what is about to lapse, low stock.
 */
export default function DashboardPage() {
  const dashboard = useQuery(dashboardQueryOptions());
  return (
    <AdminPage title="Dashboard">
      <ErrorAlert error={dashboard.error} />
      {dashboard.data && <DashboardView data={dashboard.data} />}
    </AdminPage>
  );
}

function DashboardView({ data }: { data: Dashboard }) {
  return (
    <>
      <div className="adm-cards">
        <SalesCard title="Today" sales={data.today} />
        <SalesCard title="This week" sales={data.week} />
        <SalesCard title="This month" sales={data.month} />
      </div>

      <h2 id="daily-sales">Sales, last 30 days</h2>
      <Suspense fallback={<div className="adm-chart" />}>
        <SalesChart daily={data.daily} />
      </Suspense>
      <details>
        <summary>Sales by day as a table</summary>
        <TableBox label="Paid orders and gross sales by day, last 30 days">
          <table className="adm-table">
            <caption className="visually-hidden">Paid orders and gross sales by day, last 30 days</caption>
            <thead>
              <tr>
                <th scope="col">Day</th>
                <th scope="col" className="adm-num">
                  Orders
                </th>
                <th scope="col" className="adm-num">
                  Gross
                </th>
              </tr>
            </thead>
            <tbody>
              {data.daily.map((day) => (
                <tr key={day.date}>
                  <td>{formatDate(`${day.date}T12:00:00Z`)}</td>
                  <td className="adm-num">{day.count}</td>
                  <td className="adm-num">{formatPence(day.gross)}</td>
                </tr>
              ))}
            </tbody>
          </table>
        </TableBox>
      </details>

      <div className="adm-cards">
        <section className="adm-card" aria-labelledby="awaiting-dispatch">
          <h2 id="awaiting-dispatch">Waiting to be dispatched: {data.awaitingDispatch.count}</h2>
          {data.awaitingDispatch.oldest.length === 0 ? (
            <p>Nothing to dispatch.</p>
          ) : (
            <ul>
              {data.awaitingDispatch.oldest.map((order) => (
                <li key={order.id}>
                  <Link to={`/orders/${order.orderNumber}`}>{order.orderNumber}</Link> {order.customerName}, placed{' '}
                  {formatDateTime(order.createdAt)}
                  {order.payment !== 'paid' && ` (${paymentStatusLabels[order.payment].toLowerCase()})`}
                </li>
              ))}
            </ul>
          )}
          <p className="adm-row">
            <Link to="/orders?waiting=dispatch&sort=oldest">All orders to dispatch</Link>
            {data.awaitingDispatch.count > 0 && (
              <a href="/api/admin/packing-slips" target="_blank" rel="noopener">
                Print their packing slips (PDF)
              </a>
            )}
          </p>
        </section>
        <section className="adm-card" aria-labelledby="expiring-soon">
          <h2 id="expiring-soon">Unpaid, lapsing within 15 minutes</h2>
          {data.expiringSoon.length === 0 ? (
            <p>None.</p>
          ) : (
            <ul>
              {data.expiringSoon.map((order) => (
                <li key={order.id}>
                  <Link to={`/orders/${order.orderNumber}`}>{order.orderNumber}</Link> {formatPence(order.total)}, held
                  until {formatDateTime(order.reservedUntil)}
                </li>
              ))}
            </ul>
          )}
        </section>
        <section className="adm-card" aria-labelledby="low-stock">
          <h2 id="low-stock">Low stock (at most {data.lowStockThreshold})</h2>
          {data.lowStock.length === 0 ? (
            <p>Nothing is low.</p>
          ) : (
            <ul>
              {data.lowStock.map((item) => (
                <li key={item.stockId}>
                  <Link to={`/stock/${item.stockId}`}>
                    {item.title} ({item.sizeName})
                  </Link>
                  : {item.stock} left
                </li>
              ))}
            </ul>
          )}
          {data.lowStockCount > data.lowStock.length && (
            <p>
              <Link to="/stock?low=true">and {data.lowStockCount - data.lowStock.length} more</Link>
            </p>
          )}
        </section>
      </div>

      <div className="adm-cards">
        <section className="adm-card" aria-labelledby="top-products">
          <h2 id="top-products">Best sellers this month</h2>
          {data.topProducts.length === 0 ? (
            <p>No sales yet this month.</p>
          ) : (
            <ol>
              {data.topProducts.map((product) => (
                <li key={product.productId}>
                  <Link to={`/products/${product.productId}`}>{product.title}</Link>: {plural(product.units, 'unit')},{' '}
                  {formatPence(product.gross)}
                </li>
              ))}
            </ol>
          )}
        </section>
        <section className="adm-card" aria-labelledby="customers-month">
          <h2 id="customers-month">Customers this month</h2>
          <dl className="adm-facts">
            <dt>New</dt>
            <dd>{data.customers.new}</dd>
            <dt>Returning</dt>
            <dd>{data.customers.returning}</dd>
          </dl>
        </section>
      </div>
    </>
  );
}

function SalesCard({ title, sales }: { title: string; sales: Sales }) {
  const id = `sales-${title.toLowerCase().replaceAll(' ', '-')}`;
  return (
    <section className="adm-card" aria-labelledby={id}>
      <h2 id={id}>{title}</h2>
      <dl className="adm-facts">
        <dt>Orders</dt>
        <dd>{sales.count}</dd>
        <dt>Gross</dt>
        <dd>{formatPence(sales.gross)}</dd>
        <dt>Refunds</dt>
        <dd>{formatPence(sales.refunds)}</dd>
        <dt>Net of refunds</dt>
        <dd>{formatPence(sales.net)}</dd>
        <dt>Average order</dt>
        <dd>{formatPence(sales.averageOrder)}</dd>
        <dt>VAT</dt>
        <dd>{formatPence(sales.vat)}</dd>
      </dl>
    </section>
  );
}
