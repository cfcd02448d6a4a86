import { Navigate, useLocation, useParams } from 'react-router';
import { Spinner } from '../components/ui/spinner';
import { OrderHistory } from '../features/account/order-history';
import { PasswordForm } from '../features/account/password-form';
import { ProfileForm } from '../features/account/profile-form';
import { useAuth } from '../features/auth/auth-provider';
import { OrderDetail } from '../features/orders/order-detail';
import { usePageTitle } from '../lib/page-title';

/** Spec 2: /account, /account/orders/:id and /order/:id all open the account screen. */
export default function AccountPage() {
  const { id } = useParams();
  usePageTitle(id ? `Order ${id.toUpperCase()}` : 'My Account');
  const { user, checking } = useAuth();
  const location = useLocation();
  if (!user) return checking ? <Spinner /> : <Navigate to={`/auth?redirect=${encodeURIComponent(location.pathname)}`} replace />;
  const card = 'grid gap-4 rounded-2xl bg-white p-5 sm:p-6';
  return (
    <section className="mx-auto grid max-w-5xl gap-6">
      <h1 className="text-4xl font-semibold">My Account</h1>
      {id ? (
        <OrderDetail number={id.toUpperCase()} />
      ) : (
        <>
          <section aria-labelledby="account-orders" className={card}>
            <h2 id="account-orders" className="text-2xl font-semibold">
              Your orders
            </h2>
            <OrderHistory />
          </section>
          <div className="grid items-start gap-6 lg:grid-cols-2">
            <section aria-labelledby="account-profile" className={card}>
              <h2 id="account-profile" className="text-2xl font-semibold">
                Profile
              </h2>
              <ProfileForm user={user} />
            </section>
            <section aria-labelledby="account-password" className={card}>
              <h2 id="account-password" className="text-2xl font-semibold">
                Change password
              </h2>
              <PasswordForm />
            </section>
          </div>
        </>
      )}
    </section>
  );
}
