import { useNavigate } from 'react-router';
import { toast } from '../../components/ui/toast';
import { useAuth } from '../auth/auth-provider';

/** Spec 2, 4 and 8: logging out always clears the user, tells how it went, and goes to /. */
export function useLogOut(): () => Promise<void> {
  const { logOut } = useAuth();
  const navigate = useNavigate();
  return async () => {
    const { serverFailed } = await logOut();
    toast(
      serverFailed
        ? { title: 'Logout Issue', description: 'You have been logged out, but there was a server issue.', variant: 'destructive' }
        : { title: 'Logged Out', description: 'You have been successfully logged out' },
    );
    navigate('/');
  };
}
