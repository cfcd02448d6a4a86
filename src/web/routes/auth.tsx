import type { MetaArgs } from 'react-router';
import { pageMeta } from '../lib/page-meta';
import AuthPage from '../pages/auth-page';

export const meta = (args: MetaArgs) => pageMeta(args, { name: new URLSearchParams(args.location.search).get('signup') === 'true' ? 'Create Account' : 'Sign In', noindex: true });

export default AuthPage;
