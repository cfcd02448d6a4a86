import { Navigate, useLocation, useParams } from 'react-router';
import { Panel } from '../components/ui/panel';
import { Spinner } from '../components/ui/spinner';
import { OrderHistory } from '../features/account/order-history';
import { PasswordForm } from '../features/account/password-form';
import { ProfileForm } from '../features/account/profile-form';
import { ReminderSettings } from '../features/account/reminder-settings';
import { useAuth } from '../features/auth/auth-provider';
import { OrderDetail } from '../features/orders/order-detail';
import { MySeasonBoxes } from '../features/season-box/my-season-boxes';
import { MyWaitlists } from '../features/waitlist/my-waitlists';

/** Spec 2: /account, /account/orders/:id and /order/:id all open the account screen. */
export default function AccountPage() {
  const { id } = useParams();
  const { user, checking } = useAuth();
  const location = useLocation();
  if (!user) return checking ? <Spinner /> : <Navigate to={`/auth?redirect=${encodeURIComponent(location.pathname)}`} replace />;
  return (
    <section className="mx-auto grid max-w-5xl gap-6">
      <h1 className="text-4xl font-semibold">My Account</h1>
      {id ? (
        <OrderDetail number={id.toUpperCase()} />
      ) : (
        <>
          <Panel title="Your orders">
            <OrderHistory />
          </Panel>
          <Panel title="My season box" anchor="season-box">
            <MySeasonBoxes />
          </Panel>
          <div id="waitlists" className="scroll-mt-24">
            <Panel title="Your waitlists">
              <MyWaitlists />
            </Panel>
          </div>
          <Panel title="E-mail reminders">
            <ReminderSettings />
          </Panel>
          <div className="grid items-start gap-6 lg:grid-cols-2">
            <Panel title="Profile">
              <ProfileForm user={user} />
            </Panel>
            <Panel title="Change password">
              <PasswordForm />
            </Panel>
          </div>
        </>
      )}
    </section>
  );
}
