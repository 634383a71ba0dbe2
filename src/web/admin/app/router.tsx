import { lazy } from 'react';
import { createRoutesFromElements, Route } from 'react-router';
import { Layout } from './layout.tsx';
import { RequireStaff } from './require-staff.tsx';

/** The back office's pages (docs/back-office.md), each its own lazily loaded module. */
const SignInPage = lazy(() => import('../features/auth/sign-in-page.tsx'));
const SetPasswordPage = lazy(() => import('../features/auth/set-password-page.tsx'));
const ForgotPasswordPage = lazy(() => import('../features/auth/forgot-password-page.tsx'));
const DashboardPage = lazy(() => import('../features/dashboard/dashboard-page.tsx'));
const OrdersPage = lazy(() => import('../features/orders/orders-page.tsx'));
const OrderPage = lazy(() => import('../features/orders/order-page.tsx'));
const ReturnsPage = lazy(() => import('../features/returns/returns-page.tsx'));
const DocumentsPage = lazy(() => import('../features/documents/documents-page.tsx'));
const CustomersPage = lazy(() => import('../features/customers/customers-page.tsx'));
const CustomerPage = lazy(() => import('../features/customers/customer-page.tsx'));
const CustomerRecordPage = lazy(() => import('../features/customers/customer-record-page.tsx'));
const StaffPage = lazy(() => import('../features/staff/staff-page.tsx'));
const AccountPage = lazy(() => import('../features/account/account-page.tsx'));
const AuditPage = lazy(() => import('../features/audit/audit-page.tsx'));
const ProductsPage = lazy(() => import('../features/catalogue/products-page.tsx'));
const ProductPage = lazy(() => import('../features/catalogue/product-page.tsx'));
const ProductsCsvPage = lazy(() => import('../features/catalogue/products-csv-page.tsx'));
const TypesBrandsPage = lazy(() => import('../features/catalogue/types-brands-page.tsx'));
const SettingsPage = lazy(() => import('../features/settings/settings-page.tsx'));
const StockPage = lazy(() => import('../features/stock/stock-page.tsx'));
const StockHistoryPage = lazy(() => import('../features/stock/stock-history-page.tsx'));
const VouchersPage = lazy(() => import('../features/vouchers/vouchers-page.tsx'));
const VoucherPage = lazy(() => import('../features/vouchers/voucher-page.tsx'));
const DeliveryPage = lazy(() => import('../features/delivery/delivery-page.tsx'));
const ProductPhotosPage = lazy(() => import('../features/products/photos/product-photos-page.tsx'));
const NotFoundPage = lazy(() => import('./not-found-page.tsx'));

/**
 * The back office's routes, for a data router (app.tsx): it lets a form with unsaved changes ask
 * before a link takes staff elsewhere (useBlocker, lib/leave-guard.tsx).
 */
export const adminRoutes = createRoutesFromElements(
  <Route element={<Layout />}>
    <Route path="sign-in" element={<SignInPage />} />
    <Route path="set-password/:token" element={<SetPasswordPage />} />
    <Route path="forgot-password" element={<ForgotPasswordPage />} />
    <Route element={<RequireStaff />}>
      <Route index element={<DashboardPage />} />
      <Route path="orders" element={<OrdersPage />} />
      <Route path="orders/:orderNumber" element={<OrderPage />} />
      <Route path="returns" element={<ReturnsPage />} />
      <Route path="documents" element={<DocumentsPage />} />
      <Route path="customers" element={<CustomersPage />} />
      <Route path="customers/ref/:ref" element={<CustomerRecordPage />} />
      <Route path="customers/:id" element={<CustomerPage />} />
      <Route path="products" element={<ProductsPage />} />
      <Route path="products/csv" element={<ProductsCsvPage />} />
      <Route path="products/:id" element={<ProductPage />} />
      <Route path="types-and-brands" element={<TypesBrandsPage />} />
      <Route path="stock" element={<StockPage />} />
      <Route path="stock/:stockId" element={<StockHistoryPage />} />
      <Route path="vouchers" element={<VouchersPage />} />
      <Route path="vouchers/:id" element={<VoucherPage />} />
      <Route path="delivery" element={<DeliveryPage />} />
      <Route path="audit" element={<AuditPage />} />
      <Route path="products/:id/photos" element={<ProductPhotosPage />} />
      <Route path="account" element={<AccountPage />} />
      <Route element={<RequireStaff role="owner" />}>
        <Route path="staff" element={<StaffPage />} />
        <Route path="settings" element={<SettingsPage />} />
      </Route>
      <Route path="*" element={<NotFoundPage />} />
    </Route>
  </Route>,
);
