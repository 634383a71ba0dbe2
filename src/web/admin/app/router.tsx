import { lazy } from 'react';
import { createRoutesFromElements, Route } from 'react-router';
import { Layout } from './layout.tsx';
import { HomePage } from './home-page.tsx';
import { RequireStaff } from './require-staff.tsx';

/** The back office's pages (docs/back-office.md), each its own lazily loaded module. */
const SignInPage = lazy(() => import('../features/auth/sign-in-page.tsx'));
const SetPasswordPage = lazy(() => import('../features/auth/set-password-page.tsx'));
const ForgotPasswordPage = lazy(() => import('../features/auth/forgot-password-page.tsx'));
const OrdersPage = lazy(() => import('../features/orders/orders-page.tsx'));
const OrderPage = lazy(() => import('../features/orders/order-page.tsx'));
const ReturnsPage = lazy(() => import('../features/returns/returns-page.tsx'));
const LabelsPage = lazy(() => import('../features/labels/labels-page.tsx'));
const PackagingsPage = lazy(() => import('../features/packagings/packagings-page.tsx'));
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
const RolesPage = lazy(() => import('../features/roles/roles-page.tsx'));
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
      {/* Each page behind the call that reads its data, as the server's table allows it (lib/access.ts). */}
      <Route index element={<HomePage />} />
      <Route element={<RequireStaff route="GET /orders" />}>
        <Route path="orders" element={<OrdersPage />} />
        <Route path="orders/:orderNumber" element={<OrderPage />} />
      </Route>
      <Route element={<RequireStaff route="GET /packagings" />}>
        <Route path="packaging" element={<PackagingsPage />} />
      </Route>
      <Route element={<RequireStaff route="GET /labels" />}>
        <Route path="labels" element={<LabelsPage />} />
      </Route>
      <Route element={<RequireStaff route="GET /returns" />}>
        <Route path="returns" element={<ReturnsPage />} />
      </Route>
      <Route element={<RequireStaff route="GET /documents" />}>
        <Route path="documents" element={<DocumentsPage />} />
      </Route>
      <Route element={<RequireStaff route="GET /customers" />}>
        <Route path="customers" element={<CustomersPage />} />
        <Route path="customers/ref/:ref" element={<CustomerRecordPage />} />
        <Route path="customers/:id" element={<CustomerPage />} />
      </Route>
      <Route element={<RequireStaff route="GET /products" />}>
        <Route path="products" element={<ProductsPage />} />
        <Route path="products/csv" element={<ProductsCsvPage />} />
        <Route path="products/:id" element={<ProductPage />} />
        <Route path="products/:id/photos" element={<ProductPhotosPage />} />
        <Route path="types-and-brands" element={<TypesBrandsPage />} />
      </Route>
      <Route element={<RequireStaff route="GET /stock" />}>
        <Route path="stock" element={<StockPage />} />
        <Route path="stock/:stockId" element={<StockHistoryPage />} />
      </Route>
      <Route element={<RequireStaff route="GET /vouchers" />}>
        <Route path="vouchers" element={<VouchersPage />} />
        <Route path="vouchers/:id" element={<VoucherPage />} />
      </Route>
      <Route element={<RequireStaff route="GET /delivery" />}>
        <Route path="delivery" element={<DeliveryPage />} />
      </Route>
      <Route element={<RequireStaff route="GET /audit" />}>
        <Route path="audit" element={<AuditPage />} />
      </Route>
      <Route path="account" element={<AccountPage />} />
      <Route element={<RequireStaff route="GET /staff" />}>
        <Route path="staff" element={<StaffPage />} />
      </Route>
      <Route element={<RequireStaff route="GET /roles" />}>
        <Route path="roles" element={<RolesPage />} />
      </Route>
      <Route element={<RequireStaff route="GET /settings" />}>
        <Route path="settings" element={<SettingsPage />} />
      </Route>
      <Route path="*" element={<NotFoundPage />} />
    </Route>
  </Route>,
);
