import type { User } from '../../../contracts/user';
import type { users } from '../../db/schema';

export type UserRow = typeof users.$inferSelect;

/** Spec 3: the User object; never the password hash. */
export function toUser(row: UserRow): User {
  return {
    id: row.id,
    username: row.username,
    email: row.email,
    firstName: row.firstName,
    lastName: row.lastName,
    phone: row.phone,
    address: row.address,
    city: row.city,
    postalCode: row.postalCode,
    region: row.region,
    isAdmin: row.isAdmin,
  };
}
