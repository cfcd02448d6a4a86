import type { CustomerDetail } from '../../../../contracts/customers';
import { Panel } from '../../../components/ui/panel';

interface CustomerAddressesProps {
  profile: CustomerDetail['profileAddress'];
  shipping: CustomerDetail['shippingAddresses'];
}

/** The address on the customer's profile, then every address their orders went to. */
export function CustomerAddresses({ profile, shipping }: CustomerAddressesProps) {
  const profileLines = [profile.address, [profile.city, profile.postalCode].filter(Boolean).join(' '), profile.region].filter(Boolean);
  return (
    <>
      <Panel title="Profile address" level={2} className="gap-3">
        {profileLines.length === 0 ? (
          <p className="text-sm text-ink-500">No address on the profile.</p>
        ) : (
          <address className="grid gap-1 text-sm not-italic">
            {profileLines.map((line) => (
              <span key={line}>{line}</span>
            ))}
          </address>
        )}
      </Panel>
      <Panel title="Shipping addresses used" level={2} className="gap-3">
        {shipping.length === 0 ? (
          <p className="text-sm text-ink-500">No orders shipped yet.</p>
        ) : (
          <ul className="grid gap-3 text-sm">
            {shipping.map((address) => (
              <li key={JSON.stringify(address)} className="border-b border-mango-50 pb-3 last:border-0 last:pb-0">
                <address className="grid gap-0.5 not-italic">
                  <span className="font-medium">{address.name}</span>
                  <span>{address.street}</span>
                  {address.suburb && <span>{address.suburb}</span>}
                  <span>
                    {address.city} {address.postcode}
                  </span>
                  <span>{address.region}</span>
                  <span className="text-ink-500">{address.phone}</span>
                </address>
              </li>
            ))}
          </ul>
        )}
      </Panel>
    </>
  );
}
